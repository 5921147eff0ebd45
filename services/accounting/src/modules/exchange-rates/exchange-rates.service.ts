import { type Dec, dec, roundHalfUp } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { assertCurrency } from '../currencies/currencies.js';
import { latestRates, type RateSource, type StoredRate, upsertManualRate } from './exchange-rates.repository.js';

/** Cross rates go through the euro (A6): every feed the service knows quotes against it. */
export const PIVOT = 'EUR';

export interface RateInForce {
  baseCurrency: string;
  targetCurrency: string;
  /** 1 baseCurrency = rate targetCurrency, unrounded. */
  rate: Dec;
  /** The date of the stored rate(s) used; for a cross rate the older of its two legs. */
  effectiveDate: string;
  source: RateSource;
  lastUpdated: Date | null;
  via: 'direct' | 'inverse' | 'cross';
}

interface Leg {
  rate: Dec;
  effectiveDate: string;
  source: RateSource;
  updatedAt: Date;
  via: 'direct' | 'inverse';
}

const key = (b: string, t: string) => `${b}>${t}`;

/** The better of a direct quote and an inverted one: the later date wins; a tie keeps the direct quote. */
function bestLeg(stored: Map<string, StoredRate>, from: string, to: string): Leg | null {
  const direct = stored.get(key(from, to));
  const inverse = stored.get(key(to, from));
  const legs: Leg[] = [];
  if (direct)
    legs.push({
      rate: dec(direct.rate),
      effectiveDate: direct.effective_date,
      source: direct.source,
      updatedAt: direct.updated_at,
      via: 'direct',
    });
  if (inverse)
    legs.push({
      rate: dec(1).div(inverse.rate),
      effectiveDate: inverse.effective_date,
      source: inverse.source,
      updatedAt: inverse.updated_at,
      via: 'inverse',
    });
  if (legs.length === 0) return null;
  return legs.reduce((a, b) => (b.effectiveDate > a.effectiveDate ? b : a));
}

/**
 * The rate from `base` to `target` in force on `date` (A5, A6): the latest stored rate with
 * effectiveDate on or before the date, taken directly, inverted, or crossed through EUR,
 * whichever is the most recent (on a tie: direct, then inverted, then crossed). The
 * organization's own manual rates win over global rates of the same pair and date.
 * Null when no rate exists on or before the date.
 */
export async function rateInForce(
  db: Kysely<DB>,
  organizationId: string,
  base: string,
  target: string,
  date: string,
): Promise<RateInForce | null> {
  if (base === target) {
    return {
      baseCurrency: base,
      targetCurrency: target,
      rate: dec(1),
      effectiveDate: date,
      source: 'manual',
      lastUpdated: null,
      via: 'direct',
    };
  }
  const pairs: Array<[string, string]> = [
    [base, target],
    [target, base],
  ];
  const crossable = base !== PIVOT && target !== PIVOT;
  if (crossable) pairs.push([base, PIVOT], [PIVOT, base], [PIVOT, target], [target, PIVOT]);
  const rows = await latestRates(db, organizationId, pairs, date);
  const stored = new Map(rows.map((r) => [key(r.base_currency, r.target_currency), r]));

  const candidates: RateInForce[] = [];
  const straight = bestLeg(stored, base, target);
  if (straight) {
    candidates.push({
      baseCurrency: base,
      targetCurrency: target,
      rate: straight.rate,
      effectiveDate: straight.effectiveDate,
      source: straight.source,
      lastUpdated: straight.updatedAt,
      via: straight.via,
    });
  }
  if (crossable) {
    const toPivot = bestLeg(stored, base, PIVOT);
    const fromPivot = bestLeg(stored, PIVOT, target);
    if (toPivot && fromPivot) {
      const older = fromPivot.effectiveDate < toPivot.effectiveDate ? fromPivot : toPivot;
      candidates.push({
        baseCurrency: base,
        targetCurrency: target,
        rate: toPivot.rate.mul(fromPivot.rate),
        effectiveDate: older.effectiveDate,
        source: older.source,
        lastUpdated: toPivot.updatedAt > fromPivot.updatedAt ? toPivot.updatedAt : fromPivot.updatedAt,
        via: 'cross',
      });
    }
  }
  if (candidates.length === 0) return null;
  return candidates.reduce((a, b) => (b.effectiveDate > a.effectiveDate ? b : a));
}

/** A rate as the API shows it: 6 decimals, half-up (A3). */
export function formatRate(rate: Dec | string): string {
  return roundHalfUp(dec(rate), 6).toFixed(6);
}

/**
 * The exchange rate of a document (A5): from the document currency to the organization's base
 * currency, in force on the document date, as a decimal string with 6 decimals ('1.000000' when
 * the currencies are equal). None on or before the date: 422 SVC-9003 on `currencyCode`.
 * Used by invoices, expenses and manual journal entries.
 */
export async function documentRate(
  db: Kysely<DB>,
  organizationId: string,
  currencyCode: string,
  baseCurrency: string,
  date: string,
): Promise<string> {
  if (currencyCode === baseCurrency) return '1.000000';
  const found = await rateInForce(db, organizationId, currencyCode, baseCurrency, date);
  if (!found) {
    throw new AppError('SVC-9003', {
      currencyCode: [`no exchange rate from ${currencyCode} to ${baseCurrency} on or before ${date}`],
    });
  }
  const rate = formatRate(found.rate);
  if (dec(rate).isZero()) {
    throw new AppError('SVC-9003', { currencyCode: [`the ${currencyCode} to ${baseCurrency} rate is below 0.000001`] });
  }
  return rate;
}

export function presentRate(r: RateInForce) {
  return {
    baseCurrency: r.baseCurrency,
    targetCurrency: r.targetCurrency,
    rate: formatRate(r.rate),
    effectiveDate: r.effectiveDate,
    source: r.source,
    lastUpdated: (r.lastUpdated ?? new Date()).toISOString(),
  };
}

/** GET /exchange-rates: 404 SVC-9002 only when no rate exists on or before the date (A6). */
export async function getRate(scope: TenantScope, base: string, target: string, date: string) {
  assertCurrency(base, 'base');
  assertCurrency(target, 'target');
  const found = await scope.run((db) => rateInForce(db, scope.orgId, base, target, date));
  if (!found) throw new AppError('SVC-9002');
  return presentRate(found);
}

/** POST /exchange-rates: an organization's own manual rate (see docs/accounting/books.md). */
export async function recordManualRate(
  scope: TenantScope,
  userId: string,
  body: { baseCurrency: string; targetCurrency: string; rate: number; effectiveDate: string },
) {
  assertCurrency(body.baseCurrency, 'baseCurrency');
  assertCurrency(body.targetCurrency, 'targetCurrency');
  if (body.baseCurrency === body.targetCurrency) {
    throw new AppError('SVC-9003', { targetCurrency: ['must differ from baseCurrency'] });
  }
  const rate = roundHalfUp(dec(body.rate), 10);
  if (rate.lte(0)) throw new AppError('SVC-9003', { rate: ['must be greater than 0.0000000001'] });
  const values = {
    baseCurrency: body.baseCurrency,
    targetCurrency: body.targetCurrency,
    rate: rate.toFixed(),
    effectiveDate: body.effectiveDate,
    createdBy: userId,
  };
  const row = await scope.transaction((trx) => upsertManualRate(trx, scope.orgId, values));
  return {
    baseCurrency: row.base_currency,
    targetCurrency: row.target_currency,
    rate: formatRate(row.rate),
    effectiveDate: row.effective_date,
    source: row.source,
    lastUpdated: row.updated_at.toISOString(),
  };
}
