// The package's main entry registers the country names of all 78 languages it ships (about 1.6 MB
// of heap for the life of the process); only the codes are needed here, and index.js holds them.
import countries from 'i18n-iso-countries/index.js';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { ContactsTable, DB } from '../../db/types.js';
import { assertVatNumber } from '../../domain/tax-ids.js';
import type { ErrorCode } from '../../lib/catalog.js';
import { AppError } from '../../lib/errors.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { assertCurrency } from '../currencies/currencies.js';
import * as repo from './contacts.repository.js';
import {
  CONTACT_SORTS,
  type ContactsQuery,
  type CreateContactBody,
  type UpdateContactBody,
} from './contacts.schemas.js';

type Db = Kysely<DB>;
type Row = Selectable<ContactsTable>;

/**
 * What may stop a contact's deletion. The features that reference contacts own these rules
 * (invoices: SVC-7002 for invoices not cancelled; expenses: SVC-7003 for expenses not rejected);
 * buildApp lists them. Each check runs inside the delete's transaction, after the contact row
 * is locked, and answers the catalog code that refuses the deletion, or null.
 */
export type ContactDeleteBlocker = (trx: Db, organizationId: string, contactId: string) => Promise<ErrorCode | null>;

const ALPHA2 = new Set(Object.keys(countries.getAlpha2Codes()));

/** ISO 3166-1 alpha-2, checked against the real list (SVC-7004); '' counts as no country. */
function normalizeCountry(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const code = value.trim().toUpperCase();
  if (code === '') return null;
  if (!/^[A-Z]{2}$/.test(code) || !ALPHA2.has(code)) {
    throw new AppError('SVC-7004', { country: ['must be an ISO 3166-1 alpha-2 country code'] });
  }
  return code;
}

function normalizeCurrency(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const code = value.toUpperCase();
  assertCurrency(code);
  return code;
}

function normalizeName(value: string): string {
  const name = value.trim();
  if (!name) throw new AppError('SVC-9003', { name: ['must not be blank'] });
  return name;
}

const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

export function presentContact(c: Row) {
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    email: c.email,
    phone: c.phone,
    registrationNumber: c.registration_number,
    vatNumber: c.vat_number,
    addressLine1: c.address_line1,
    addressLine2: c.address_line2,
    city: c.city,
    postalCode: c.postal_code,
    country: c.country,
    currencyCode: c.currency_code,
    paymentTerms: c.payment_terms,
    isActive: c.is_active,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
  };
}

export const presentContactWithNotes = (c: Row) => ({ ...presentContact(c), notes: c.notes });

function optionalFields(body: Static<typeof UpdateContactBody>): Updateable<ContactsTable> {
  const v: Updateable<ContactsTable> = {};
  if (body.type !== undefined) v.type = body.type;
  if (body.name !== undefined) v.name = normalizeName(body.name);
  if (body.email !== undefined) v.email = blankToNull(body.email);
  if (body.phone !== undefined) v.phone = blankToNull(body.phone);
  if (body.registrationNumber !== undefined) v.registration_number = blankToNull(body.registrationNumber);
  if (body.vatNumber !== undefined) v.vat_number = blankToNull(body.vatNumber);
  if (body.addressLine1 !== undefined) v.address_line1 = blankToNull(body.addressLine1);
  if (body.addressLine2 !== undefined) v.address_line2 = blankToNull(body.addressLine2);
  if (body.city !== undefined) v.city = blankToNull(body.city);
  if (body.postalCode !== undefined) v.postal_code = blankToNull(body.postalCode);
  if (body.country !== undefined) v.country = normalizeCountry(body.country);
  if (body.currencyCode !== undefined) v.currency_code = normalizeCurrency(body.currencyCode);
  if (body.paymentTerms !== undefined) v.payment_terms = body.paymentTerms;
  if (body.notes !== undefined) v.notes = body.notes;
  return v;
}

export async function listContacts(scope: TenantScope, q: Static<typeof ContactsQuery>) {
  const page = pageRequest(q, CONTACT_SORTS, 'createdAt');
  const filter = { type: q.type, isActive: q.isActive ?? true, search: q.search };
  const { rows, total } = await scope.run((db) => repo.listContacts(db, scope.orgId, filter, page));
  return { data: rows.map(presentContact), meta: pageMeta(total, page) };
}

export async function getContact(scope: TenantScope, id: string) {
  const row = await scope.run((db) => repo.findContact(db, scope.orgId, id));
  if (!row) throw new AppError('SVC-7001');
  return presentContactWithNotes(row);
}

export async function createContact(scope: TenantScope, baseCurrency: string, body: Static<typeof CreateContactBody>) {
  const fields = optionalFields(body);
  const values: Insertable<ContactsTable> = {
    ...(fields as Insertable<ContactsTable>),
    organization_id: scope.orgId,
    type: body.type,
    name: normalizeName(body.name),
    currency_code: fields.currency_code ?? baseCurrency,
  };
  assertVatNumber(values.country, values.vat_number);
  return presentContactWithNotes(await scope.transaction((trx) => repo.insertContact(trx, values)));
}

export function updateContact(scope: TenantScope, id: string, body: Static<typeof UpdateContactBody>) {
  const values = optionalFields(body);
  return scope.transaction(async (trx) => {
    const row = Object.keys(values).length
      ? await repo.updateContact(trx, scope.orgId, id, values)
      : await repo.findContact(trx, scope.orgId, id);
    if (!row) throw new AppError('SVC-7001');
    // E2 on the record as it now stands (the rollback undoes the update); an untouched old
    // number does not block unrelated edits.
    if (body.vatNumber !== undefined || body.country !== undefined) assertVatNumber(row.country, row.vat_number);
    return presentContactWithNotes(row);
  });
}

/** The route's entry point for deleteContact, in its own transaction. */
export function removeContact(
  scope: TenantScope,
  id: string,
  blockers: readonly ContactDeleteBlocker[],
): Promise<void> {
  return scope.transaction((trx) => deleteContact(trx, scope.orgId, id, blockers));
}

/** Soft delete (isActive false), refused while one of the blockers objects; deleting twice is a no-op. */
export async function deleteContact(
  trx: Db,
  orgId: string,
  id: string,
  blockers: readonly ContactDeleteBlocker[],
): Promise<void> {
  const row = await repo.lockContact(trx, orgId, id);
  if (!row) throw new AppError('SVC-7001');
  if (!row.is_active) return;
  for (const check of blockers) {
    const code = await check(trx, orgId, id);
    if (code) throw new AppError(code);
  }
  await repo.updateContact(trx, orgId, id, { is_active: false });
}
