import type pg from 'pg';

/**
 * The one place that relies on node-postgres beyond its public API.
 *
 * node-postgres (8.x) has a `pipeline` client option (not in @types/pg): each query is written to the
 * socket as soon as it is submitted instead of after the previous answer, so a context script, a
 * statement and its COMMIT share one round trip. Each submitted query is still its own `write`, and
 * so its own system call and, with Nagle off, its own TCP segment. Corking the client's socket
 * (`client.connection.stream`, a private field) while the parts are submitted sends them in one write.
 *
 * What it buys, measured with `npm run bench -- pg-cork` (50 workers, BEGIN + one statement + COMMIT
 * pipelines on a 10-connection pool to the local PostgreSQL, corked and uncorked rounds alternating in
 * one run, 2026-11-27, busy machine): median 4,369 corked vs 2,931 uncorked pipelines/s (x1.49).
 * Every request of the hot write paths (POST /invoices, POST /transactions, remittances) and every
 * connection switching organization takes this path.
 *
 * When an upgrade of `pg` moves or removes what this relies on, pg-internals.test.ts fails, so the
 * change is noticed at `npm test` instead of as a silent slowdown (the code below degrades to
 * uncorked writes, never to an error).
 */

/** What a pool config needs for pipeline mode; `pipeline` is missing from @types/pg. */
export type PipelinedPoolConfig = pg.PoolConfig & { pipeline: true };

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The client's socket, when node-postgres still keeps it where this expects it. */
export function clientSocket(client: pg.ClientBase): Corkable | null {
  const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function' ? (stream as Corkable) : null;
}

/** Runs `submit` (which submits queries without awaiting them) with the client's socket corked. */
export function corked<T>(client: pg.ClientBase, submit: () => T): T {
  const socket = clientSocket(client);
  socket?.cork();
  try {
    return submit();
  } finally {
    socket?.uncork();
  }
}

/** true when the client runs in pipeline mode (the private flag the option sets). */
export function isPipelined(client: pg.ClientBase): boolean {
  return (client as unknown as { pipeline?: unknown }).pipeline === true;
}
