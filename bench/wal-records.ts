/**
 * The WAL a database was written since an LSN, read back with pg_walinspect (a contrib extension of
 * PostgreSQL 15+, created in the admin database): the records that name one of the database's
 * relations, and every record of a transaction that did (its commit record). Full-page images are
 * counted apart: they depend on when the last checkpoint ran, not on the request. Used by
 * bench/wal.ts.
 */
import pg from 'pg';
import { PG_ADMIN } from './lib.js';

export interface WalUse {
  records: number;
  bytes: number;
  fpiBytes: number;
  byRelation: Map<string, { records: number; bytes: number }>;
}

let admin: pg.Client | null = null;
async function adminClient(): Promise<pg.Client> {
  if (admin) return admin;
  admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  // A temporary slot (dropped with this session) keeps the server from recycling the WAL before it
  // is read back: other sessions' tests can write segments' worth while a side runs.
  await admin.query('SELECT pg_create_physical_replication_slot($1, true, true)', [`bench_wal_${process.pid}`]);
  return admin;
}

export async function walLsn(): Promise<string> {
  const c = await adminClient();
  return (await c.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
}

/** The WAL written for database `dbName` since `from` (an LSN from walLsn()). */
export async function walSince(dbName: string, from: string): Promise<WalUse> {
  const c = await adminClient();
  const oid = (await c.query('SELECT oid FROM pg_database WHERE datname = $1', [dbName])).rows[0].oid as number;
  const { rows } = await c.query(
    `WITH r AS (
       SELECT xid, resource_manager, record_type, record_length, fpi_length, block_ref
       FROM pg_get_wal_records_info($1::pg_lsn, pg_current_wal_flush_lsn())
     ), ours AS (
       SELECT DISTINCT xid FROM r WHERE xid <> '0' AND block_ref LIKE $2
     )
     SELECT r.resource_manager, r.record_type, r.record_length, r.fpi_length,
       substring(r.block_ref from 'rel \\d+/\\d+/(\\d+)') AS rel
     FROM r WHERE r.block_ref LIKE $2 OR r.xid IN (SELECT xid FROM ours)`,
    [from, `%rel 1663/${oid}/%`],
  );
  const byRelation = new Map<string, { records: number; bytes: number }>();
  let bytes = 0;
  let fpiBytes = 0;
  for (const r of rows) {
    bytes += r.record_length - r.fpi_length;
    fpiBytes += r.fpi_length;
    const key = r.rel ?? `${r.resource_manager}/${r.record_type}`;
    const e = byRelation.get(key) ?? { records: 0, bytes: 0 };
    e.records++;
    e.bytes += r.record_length - r.fpi_length;
    byRelation.set(key, e);
  }
  return { records: rows.length, bytes, fpiBytes, byRelation };
}

/** Relation file nodes to names, for the per-relation detail. */
export async function relationNames(dbUrl: string): Promise<Map<string, string>> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT pg_relation_filenode(oid)::text AS node, relname FROM pg_class WHERE pg_relation_filenode(oid) IS NOT NULL`,
    );
    return new Map(rows.map((r) => [r.node as string, r.relname as string]));
  } finally {
    await c.end();
  }
}

export async function closeWal(): Promise<void> {
  await admin?.end();
  admin = null;
}
