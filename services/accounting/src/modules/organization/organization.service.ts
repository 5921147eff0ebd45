import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB, OrganizationCountry, OrganizationLanguage, OrganizationsTable } from '../../db/types.js';
import { normalizePaymentAccount } from '../../domain/payment-account.js';
import { assertVatNumber } from '../../domain/tax-ids.js';
import { AppError } from '../../lib/errors.js';
import type { TenantTx } from '../../plugins/auth.js';
import { insertDefaultChart } from '../accounts/accounts.repository.js';
import { DEFAULT_TAX_RATES } from '../tax-rates/defaults.js';
import { insertTaxRates } from '../tax-rates/tax-rates.repository.js';
import { insertOwner } from '../users/users.repository.js';
import * as repo from './organization.repository.js';
import type { UpdateOrganizationBody } from './organization.schemas.js';

export function presentOrganization(o: Selectable<OrganizationsTable>) {
  return {
    id: o.id,
    name: o.name,
    registrationNumber: o.registration_number,
    vatNumber: o.vat_number,
    addressLine1: o.address_line1,
    city: o.city,
    postalCode: o.postal_code,
    iban: o.iban,
    baseCurrency: o.base_currency,
    country: o.country,
    language: o.language,
    fiscalYearStart: o.fiscal_year_start,
    createdAt: o.created_at.toISOString(),
    updatedAt: o.updated_at.toISOString(),
  };
}

const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

/** E1 address and payment account fields of a register or PUT body, as columns (only those given). */
export function addressValues(
  country: string,
  body: { addressLine1?: string | null; city?: string | null; postalCode?: string | null; iban?: string | null },
): Updateable<OrganizationsTable> {
  const values: Updateable<OrganizationsTable> = {};
  if (body.addressLine1 !== undefined) values.address_line1 = blankToNull(body.addressLine1);
  if (body.city !== undefined) values.city = blankToNull(body.city);
  if (body.postalCode !== undefined) values.postal_code = blankToNull(body.postalCode);
  if (body.iban !== undefined) values.iban = normalizePaymentAccount(country, body.iban);
  return values;
}

export async function getOrganization(scope: TenantScope) {
  const org = await scope.run((db) => repo.findOrganization(db, scope.orgId));
  if (!org) throw new AppError('SVC-2001');
  return presentOrganization(org);
}

export function updateOrganization(scope: TenantScope, body: Static<typeof UpdateOrganizationBody>) {
  return scope.transaction((trx) => applyOrganizationUpdate(trx, scope.orgId, body));
}

async function applyOrganizationUpdate(trx: TenantTx, orgId: string, body: Static<typeof UpdateOrganizationBody>) {
  const current = await repo.lockOrganization(trx, orgId);
  if (!current) throw new AppError('SVC-2001');
  if (
    body.baseCurrency !== undefined &&
    body.baseCurrency !== current.base_currency &&
    (await repo.hasPostings(trx, orgId))
  ) {
    throw new AppError('SVC-2004', { baseCurrency: ['cannot change once ledger transactions exist'] });
  }
  const values: Updateable<OrganizationsTable> = {};
  if (body.name !== undefined) values.name = body.name.trim();
  if (body.registrationNumber !== undefined) values.registration_number = body.registrationNumber;
  if (body.vatNumber !== undefined) {
    assertVatNumber(current.country, body.vatNumber);
    values.vat_number = body.vatNumber;
  }
  Object.assign(values, addressValues(current.country, body));
  if (body.baseCurrency !== undefined) values.base_currency = body.baseCurrency;
  if (body.language !== undefined) values.language = body.language;
  if (body.fiscalYearStart !== undefined) values.fiscal_year_start = body.fiscalYearStart;
  if (Object.keys(values).length === 0) return presentOrganization(current);
  return presentOrganization(await repo.updateOrganization(trx, orgId, values));
}

export interface NewOrganization {
  orgId: string;
  organizationName: string;
  country: OrganizationCountry;
  baseCurrency: string;
  language: OrganizationLanguage;
  registrationNumber: string | null;
  vatNumber: string | null;
  address: Updateable<OrganizationsTable>;
  fiscalYearStart: string;
  owner: { id: string; email: string; fullName: string; passwordHash: string };
}

/**
 * Registration's writes, in the caller's transaction: the organization, its owner, the default
 * chart of accounts (A7) and the country's VAT rates, each written by the module that owns the
 * table.
 */
export async function createOrganizationWithOwner(trx: Kysely<DB>, input: NewOrganization): Promise<void> {
  const rates = DEFAULT_TAX_RATES[input.country];
  await repo.insertOrganization(trx, {
    id: input.orgId,
    name: input.organizationName,
    country: input.country,
    base_currency: input.baseCurrency,
    language: input.language,
    registration_number: input.registrationNumber,
    vat_number: input.vatNumber,
    ...input.address,
    fiscal_year_start: input.fiscalYearStart,
    default_vat_rate: rates[0].rate,
  });
  await insertOwner(trx, input.orgId, input.owner);
  await insertDefaultChart(trx, input.orgId, input.baseCurrency, input.language);
  await insertTaxRates(trx, input.orgId, rates);
}
