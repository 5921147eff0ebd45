import { describe, expect, it } from 'vitest';
import {
  type BankLine,
  matchScore,
  type PostingCandidate,
  suggestMatches,
} from '../src/modules/banking/reconciliation.js';

/** A15 scoring on constructed cases: each rule alone, the date boundaries both ways, the cap, the allocation. */
const BANK_LEDGER = 'bank-ledger';
const line = (o: Partial<BankLine> = {}): BankLine => ({
  id: 'b1',
  date: '2026-05-15',
  amount: '100.00',
  description: 'Payment',
  reference: '',
  ...o,
});
const posting = (o: Partial<PostingCandidate> = {}): PostingCandidate => ({
  id: 'p1',
  date: '2026-05-15',
  amount: '100.0000',
  description: 'Manual entry',
  debitAccountId: BANK_LEDGER,
  creditAccountId: 'revenue',
  documentNumber: null,
  ...o,
});
const far = { date: '2026-01-01' }; // far enough for no date points

describe('matchScore', () => {
  it('gives 50 for equal amounts on the matching side: money in debits the bank ledger account, money out credits it', () => {
    expect(matchScore(line(), posting(far), BANK_LEDGER)).toBe(50);
    expect(
      matchScore(
        line({ amount: '-100' }),
        posting({ ...far, debitAccountId: 'expense', creditAccountId: BANK_LEDGER }),
        BANK_LEDGER,
      ),
    ).toBe(50);
  });

  it('gives no amount points on the wrong side or for a different amount', () => {
    expect(matchScore(line({ amount: '-100' }), posting(far), BANK_LEDGER)).toBe(0);
    expect(
      matchScore(line(), posting({ ...far, debitAccountId: 'expense', creditAccountId: BANK_LEDGER }), BANK_LEDGER),
    ).toBe(0);
    expect(matchScore(line({ amount: '100.01' }), posting(far), BANK_LEDGER)).toBe(0);
  });

  it.each([
    ['2026-05-15', 30],
    ['2026-05-14', 20],
    ['2026-05-16', 20],
    ['2026-05-12', 20],
    ['2026-05-18', 20], // 3 days either way
    ['2026-05-11', 10],
    ['2026-05-19', 10], // 4 days
    ['2026-05-08', 10],
    ['2026-05-22', 10], // 7 days either way
    ['2026-05-07', 0],
    ['2026-05-23', 0], // 8 days either way
  ])('scores a posting dated %s against a line of 2026-05-15 with %i date points', (date, points) => {
    expect(matchScore(line({ amount: '5' }), posting({ date }), BANK_LEDGER)).toBe(points);
  });

  it('counts date distance across month and year ends by calendar days', () => {
    expect(matchScore(line({ amount: '5', date: '2026-01-02' }), posting({ date: '2025-12-30' }), BANK_LEDGER)).toBe(
      20,
    );
    expect(matchScore(line({ amount: '5', date: '2026-03-01' }), posting({ date: '2026-02-22' }), BANK_LEDGER)).toBe(
      10,
    );
  });

  it('gives 20 when the bank reference or description contains the document number, or the posting description contains the bank reference', () => {
    const p = posting({ ...far, amount: '1', documentNumber: 'INV-2026-0042' });
    expect(matchScore(line({ reference: 'inv-2026-0042' }), p, BANK_LEDGER)).toBe(20);
    expect(matchScore(line({ description: 'Uplata po INV-2026-0042' }), p, BANK_LEDGER)).toBe(20);
    expect(
      matchScore(
        line({ reference: 'SEPA-991' }),
        posting({ ...far, amount: '1', description: 'Transfer SEPA-991 in' }),
        BANK_LEDGER,
      ),
    ).toBe(20);
    // An empty reference or a missing document number matches nothing.
    expect(matchScore(line({ reference: '  ' }), posting({ ...far, amount: '1' }), BANK_LEDGER)).toBe(0);
  });

  it('adds the rules up and caps the total at 100', () => {
    expect(
      matchScore(line({ reference: 'EXP-2026-0001' }), posting({ documentNumber: 'EXP-2026-0001' }), BANK_LEDGER),
    ).toBe(100);
    expect(matchScore(line({ date: '2026-05-17', reference: 'R1' }), posting({ description: 'R1' }), BANK_LEDGER)).toBe(
      90,
    );
    // Every rule at once sums to 120 (50 + 30 + 20 + 20): still 100.
    const everything = posting({ documentNumber: 'INV-2026-0001', paymentReference: '97 0420260001' });
    const bank = line({ reference: 'INV-2026-0001 97-0420260001' });
    expect(matchScore(bank, everything, BANK_LEDGER)).toBe(100);
    expect(matchScore(bank, { ...everything, date: '2026-05-20' }, BANK_LEDGER)).toBe(100); // 50 + 10 + 20 + 20
    expect(matchScore(bank, { ...everything, debitAccountId: 'other' }, BANK_LEDGER)).toBe(70); // 30 + 20 + 20
  });

  it('compares payment references without spaces and hyphens, and only when the posting has one', () => {
    const far5 = { date: '2026-01-01' };
    // The bank writes the reference compact, the invoice with a space: the same reference (50 + 20).
    expect(
      matchScore(
        line({ reference: '970420260001' }),
        posting({ ...far5, paymentReference: '97 0420260001' }),
        BANK_LEDGER,
      ),
    ).toBe(70);
    // Another reference: the amount only.
    expect(
      matchScore(line({ reference: 'R-1' }), posting({ ...far5, paymentReference: '970420260001' }), BANK_LEDGER),
    ).toBe(50);
    // A blank bank reference is no reference, even against a description with blanks in it.
    expect(matchScore(line({ reference: '   ' }), posting({ ...far5, description: 'A   B' }), BANK_LEDGER)).toBe(50);
  });
});

describe('suggestMatches', () => {
  it('keeps pairs scoring 50 or more, best first, and suggests each posting at most once', () => {
    const lines = [line({ id: 'a' }), line({ id: 'b', date: '2026-05-17' }), line({ id: 'c', amount: '7' })];
    const candidates = [
      { ...posting({ id: 'p1' }), bankId: 'a' }, // 80
      { ...posting({ id: 'p1', date: '2026-05-15' }), bankId: 'b' }, // 70: p1 already goes to a
      { ...posting({ id: 'p2', date: '2026-05-10' }), bankId: 'b' }, // 50 + 10 (7 days) = 60
      { ...posting({ id: 'p3', amount: '9', date: '2026-05-15' }), bankId: 'c' }, // 30 only: below the threshold
    ];
    expect(suggestMatches(lines, candidates, BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p1', score: 80 },
      { bankTxId: 'b', glTxId: 'p2', score: 60 },
    ]);
  });

  it('keeps a pair at exactly the threshold (50: the amount alone)', () => {
    expect(
      suggestMatches([line({ id: 'a' })], [{ ...posting({ id: 'p1', ...far }), bankId: 'a' }], BANK_LEDGER),
    ).toEqual([{ bankTxId: 'a', glTxId: 'p1', score: 50 }]);
  });

  it('breaks ties by the closer date, then the line first on the page, then the posting id', () => {
    // Both 70 (50 + 20 within 3 days): the one a day off beats the one two days off.
    const byDays = [
      { ...posting({ id: 'p1', date: '2026-05-17' }), bankId: 'a' },
      { ...posting({ id: 'p2', date: '2026-05-16' }), bankId: 'a' },
    ];
    expect(suggestMatches([line({ id: 'a' })], byDays, BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p2', score: 70 },
    ]);
    // One posting fitting two lines equally goes to the line listed first.
    const byOrder = [
      { ...posting({ id: 'p1' }), bankId: 'b' },
      { ...posting({ id: 'p1' }), bankId: 'a' },
    ];
    expect(suggestMatches([line({ id: 'a' }), line({ id: 'b' })], byOrder, BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p1', score: 80 },
    ]);
    expect(suggestMatches([line({ id: 'b' }), line({ id: 'a' })], byOrder, BANK_LEDGER)).toEqual([
      { bankTxId: 'b', glTxId: 'p1', score: 80 },
    ]);
    // Everything equal: the smaller posting id.
    const byId = [
      { ...posting({ id: 'p2' }), bankId: 'a' },
      { ...posting({ id: 'p1' }), bankId: 'a' },
    ];
    expect(suggestMatches([line({ id: 'a' })], byId, BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p1', score: 80 },
    ]);
    expect(suggestMatches([line({ id: 'a' })], [...byId].reverse(), BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p1', score: 80 },
    ]);
  });

  it('gives a line its best posting only', () => {
    const candidates = [
      { ...posting({ id: 'p1', date: '2026-05-20' }), bankId: 'a' },
      { ...posting({ id: 'p2' }), bankId: 'a' },
    ];
    expect(suggestMatches([line({ id: 'a' })], candidates, BANK_LEDGER)).toEqual([
      { bankTxId: 'a', glTxId: 'p2', score: 80 },
    ]);
  });
});
