import { dec } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError, addDetail, type ErrorDetails } from '../../lib/errors.js';
import * as repo from './tax-rates.repository.js';
import type { UpdateTaxRatesBody } from './tax-rates.schemas.js';

type Db = Kysely<DB>;

/** Percent with at most 4 decimals (numeric(7,4)) as a plain number for the response. */
const percent = (v: string) => Number(dec(v).toFixed());

export function getTaxRates(scope: TenantScope) {
  return scope.run((db) => readTaxRates(db, scope.orgId));
}

async function readTaxRates(db: Db, orgId: string) {
  const s = await repo.findTaxSettings(db, orgId);
  if (!s) throw new AppError('SVC-2001');
  return {
    country: s.country,
    defaultVATRate: percent(s.default_vat_rate),
    rates: s.rates.map((r) => ({ name: r.name, rate: percent(r.rate), description: r.description })),
  };
}

/** 0-100 with at most 4 decimals; out of range: SVC-8006 (listing every offending field). */
function checkRate(value: number, field: string, outOfRange: ErrorDetails, invalid: ErrorDetails): string {
  const d = dec(value);
  if (d.lt(0) || d.gt(100)) addDetail(outOfRange, field, 'must be between 0 and 100');
  else if (d.decimalPlaces() > 4) addDetail(invalid, field, 'must have at most 4 decimals');
  return d.toFixed();
}

export async function updateTaxRates(scope: TenantScope, body: Static<typeof UpdateTaxRatesBody>) {
  const outOfRange: ErrorDetails = {};
  const invalid: ErrorDetails = {};
  const defaultRate = checkRate(body.defaultVATRate, 'defaultVATRate', outOfRange, invalid);
  const seen = new Set<string>();
  const rates = body.rates.map((r, i) => {
    const name = r.name.trim();
    if (!name) addDetail(invalid, `rates[${i}].name`, 'must not be blank');
    if (seen.has(name.toLowerCase())) addDetail(invalid, `rates[${i}].name`, 'is used by another rate');
    seen.add(name.toLowerCase());
    return {
      name,
      rate: checkRate(r.rate, `rates[${i}].rate`, outOfRange, invalid),
      description: (r.description ?? '').trim(),
    };
  });
  if (Object.keys(outOfRange).length) throw new AppError('SVC-8006', outOfRange);
  if (Object.keys(invalid).length) throw new AppError('SVC-9003', invalid);
  return scope.transaction(async (trx) => {
    await repo.replaceTaxRates(trx, scope.orgId, defaultRate, rates);
    return readTaxRates(trx, scope.orgId);
  });
}
