import type { ColumnType } from 'kysely';

// The column types every generated schema (npm run db:types) is written in, defined once for
// both services.
/** numeric: a decimal string both ways. A JS number would be rounded before PostgreSQL saw it. */
export type Numeric = ColumnType<string, string, string>;
/** timestamptz: read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/**
 * json/jsonb: read parsed, written as JSON text (JSON.stringify), because node-postgres would
 * send a JS array as a PostgreSQL array literal.
 */
export type Json = ColumnType<unknown, string, string>;
/** A column with a default: optional on insert. */
export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;
/** A column the database computes: read only. */
export type GeneratedAlways<T> =
  T extends ColumnType<infer S, unknown, unknown> ? ColumnType<S, never, never> : ColumnType<T, never, never>;
