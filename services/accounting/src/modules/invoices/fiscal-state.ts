import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/types.js';
import { literalUnion } from '../../lib/schemas.js';

/**
 * A Croatian fiscalization message's state (CONTRACT D5, issue 28): part of the invoice as the
 * invoices module shows it, so it lives here and the fiscalization module (which writes it) imports
 * it, not the other way round (no folder loop, test/import-graph.test.ts), as sef-state.ts.
 */
export const FiscalState = Type.Object({
  status: literalUnion(['Pending', 'Fiscalized', 'Failed'], {
    description:
      'Pending: recorded, not yet answered (tried again with backoff; lastError says why); Fiscalized: the Tax Administration accepted it; Failed: refused (errors) or not buildable (lastError)',
  }),
  requestId: Type.String({ format: 'uuid' }),
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), {
    description: "the Tax Administration's error codes (greska: sifra, opis)",
  }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  answeredAt: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});

export interface FiscalRecordLike {
  status: string;
  request_id: string;
  errors: unknown;
  last_error: string | null;
  answered_at: string | null;
  attempts: number;
  next_attempt_at: Date | string | null;
  updated_at: Date | string;
}

export function presentFiscal(r: FiscalRecordLike | undefined | null) {
  if (!r) return null;
  const errors = (typeof r.errors === 'string' ? JSON.parse(r.errors) : r.errors) as Array<{
    code: string;
    message: string;
  }>;
  return {
    status: r.status as 'Pending' | 'Fiscalized' | 'Failed',
    requestId: r.request_id,
    errors,
    lastError: r.last_error,
    answeredAt: r.answered_at,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'Pending' && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The invoice's own fiscalization (EvidentirajERacun I), or null. */
export async function fiscalStateOf(db: Kysely<DB>, orgId: string, invoiceId: string) {
  const row = await db
    .selectFrom('fiscal_records')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('message', '=', 'eracun')
    .executeTakeFirst();
  return presentFiscal(row);
}
