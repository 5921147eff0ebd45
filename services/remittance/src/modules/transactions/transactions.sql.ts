/**
 * The transactions module's hand-written SQL (issue 31): the history page in one statement and
 * one round trip, its items built as JSON text by PostgreSQL in the response schema's key order and
 * sent without parsing and serialising each row in Node. Run on a migrated database by
 * test/hot-sql.test.ts, which holds the answer to TransactionListResponse.
 *
 * Pages are kept per instance as accounting's invoice list keeps its pages (KeptPages): the same
 * statement reads the version of the user's history (the user's highest `change_seq`, one probe of
 * an index, migration 20261203000100) and computes the page only when it is not the version of the
 * page the instance holds. Measured in BENCHMARKS.md.
 */
import type { TransactionFilter } from './transactions.repository.js';

/**
 * One list item as JSON text: strings through to_json (JSON escaping), the amount negated (money
 * going out) as a float8, which PostgreSQL writes as the shortest text that reads back as the same
 * number, as JSON.stringify writes a JavaScript number; createdAt as Date#toISOString writes it.
 */
const ITEM_JSON = `concat('{"id":', to_json(t.id), ',"type":"', t.type, '","status":"', t.status,
  '","amount":', (-t.send_amount)::float8, ',"currency":', to_json(t.send_currency),
  ',"recipientName":', to_json(t.recipient_name),
  ',"createdAt":"', to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"}')`;

const listSql = new Map<string, string>();

/**
 * The version of the user's history and, unless it is the held one, the page and the filtered total,
 * for one combination of filters ($1 user, then type and status when present, then LIMIT, OFFSET and
 * the held version or -1), built once per combination and kept. The total is a count over the
 * user's filtered rows (the transactions_user index); a page past the end still gets it. A user
 * without transactions has no version: the (empty) page is computed every time.
 */
export function listTransactionsSql(f: TransactionFilter): string {
  const key = `${+!!f.type}${+!!f.status}`;
  let text = listSql.get(key);
  if (text) return text;
  const where = ['user_id = $1'];
  let n = 1;
  if (f.type) where.push(`type = $${++n}`);
  if (f.status) where.push(`status = $${++n}`);
  const filtered = `FROM transactions WHERE ${where.join(' AND ')}`;
  const stale = `v.version IS DISTINCT FROM $${n + 3}::bigint`;
  text = `SELECT v.version::text AS version,
    CASE WHEN ${stale} THEN (SELECT count(*) ${filtered})::int END AS total,
    CASE WHEN ${stale} THEN (SELECT coalesce('[' || string_agg(${ITEM_JSON}, ',' ORDER BY t.created_at DESC, t.seq DESC) || ']', '[]')
       FROM (SELECT id, type, status, send_amount, send_currency, recipient_name, created_at, seq
             ${filtered} ORDER BY created_at DESC, seq DESC LIMIT $${n + 1} OFFSET $${n + 2}) t) END AS data
    FROM (SELECT max(change_seq) AS version FROM transactions WHERE user_id = $1) v`;
  listSql.set(key, text);
  return text;
}
