import { dec } from '@app/shared/money';

/**
 * Reconciliation scoring (A15), in one function so that every rule is read in one place.
 */
export interface BankLine {
  id: string;
  date: string; // YYYY-MM-DD
  /** Signed: positive = money in. */
  amount: string;
  description: string;
  reference: string;
}

export interface PostingCandidate {
  id: string;
  date: string;
  /** Positive posting amount. */
  amount: string;
  description: string;
  debitAccountId: string;
  creditAccountId: string;
  /** Number of the invoice or expense the posting belongs to (sale, approval or payment). */
  documentNumber: string | null;
  /** E4: the payment reference of the posting's invoice (RS model 97, HR HR01), if it has one. */
  paymentReference?: string | null;
}

const DAY_MS = 86_400_000;
function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
}

const contains = (haystack: string, needle: string | null) =>
  !!needle && haystack.toLowerCase().includes(needle.toLowerCase());

/** Payment references are written with or without spaces and hyphens ("97 0420260001", "HR01 2026-00013"). */
const compactRef = (v: string) => v.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/**
 * +50 amounts match: a positive bank amount against a posting that debits the bank's ledger
 *     account, a negative one against a posting that credits it, equal absolute amounts;
 * +30 same date, +20 within 3 days, +10 within 7 days (either direction);
 * +20 the bank reference or description contains the posting's document number, or the posting's
 *     description contains the bank reference;
 * +20 (E4) the bank reference contains the invoice's payment reference (compared without spaces
 *     and hyphens), on top of the rule above;
 * capped at 100.
 */
export function matchScore(bank: BankLine, posting: PostingCandidate, ledgerAccountId: string): number {
  let score = 0;
  const amount = dec(bank.amount);
  const rightSide = amount.gt(0)
    ? posting.debitAccountId === ledgerAccountId
    : posting.creditAccountId === ledgerAccountId;
  if (rightSide && amount.abs().eq(posting.amount)) score += 50;

  const days = daysApart(bank.date, posting.date);
  if (days === 0) score += 30;
  else if (days <= 3) score += 20;
  else if (days <= 7) score += 10;

  const referenceMatch =
    contains(bank.reference, posting.documentNumber) ||
    contains(bank.description, posting.documentNumber) ||
    contains(posting.description, bank.reference.trim() || null);
  if (referenceMatch) score += 20;
  if (posting.paymentReference && compactRef(bank.reference).includes(compactRef(posting.paymentReference)))
    score += 20;

  return Math.min(score, 100);
}

export interface Suggestion {
  bankTxId: string;
  glTxId: string;
  score: number;
}

export const SUGGESTION_THRESHOLD = 50;
/** A bank line shows its best suggestion only, so a posting that fits several lines goes to the best of them. */
export const SUGGESTIONS_PER_LINE = 1;

/**
 * Scores every (bank line, posting) pair, keeps those at or above the threshold and hands them
 * out best first: a posting is suggested at most once (to the line it fits best), a line gets at
 * most SUGGESTIONS_PER_LINE. Ties go to the closer date, then to the line's order on the page.
 */
export function suggestMatches(
  lines: BankLine[],
  candidates: Array<PostingCandidate & { bankId: string }>,
  ledgerAccountId: string,
): Suggestion[] {
  const byId = new Map(lines.map((l, i) => [l.id, { line: l, order: i }]));
  const scored: Array<Suggestion & { days: number; order: number }> = [];
  for (const c of candidates) {
    const entry = byId.get(c.bankId);
    if (!entry) continue;
    const score = matchScore(entry.line, c, ledgerAccountId);
    if (score >= SUGGESTION_THRESHOLD) {
      scored.push({
        bankTxId: c.bankId,
        glTxId: c.id,
        score,
        days: daysApart(entry.line.date, c.date),
        order: entry.order,
      });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.days - b.days || a.order - b.order || (a.glTxId < b.glTxId ? -1 : 1));
  const usedPostings = new Set<string>();
  const perLine = new Map<string, number>();
  const out: Suggestion[] = [];
  for (const s of scored) {
    if (usedPostings.has(s.glTxId) || (perLine.get(s.bankTxId) ?? 0) >= SUGGESTIONS_PER_LINE) continue;
    usedPostings.add(s.glTxId);
    perLine.set(s.bankTxId, (perLine.get(s.bankTxId) ?? 0) + 1);
    out.push({ bankTxId: s.bankTxId, glTxId: s.glTxId, score: s.score });
  }
  return out;
}
