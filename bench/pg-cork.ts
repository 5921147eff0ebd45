/**
 * `npm run bench -- pg-cork`: what corking the pg socket buys (packages/shared/src/db/pg-internals.ts).
 * 50 concurrent workers on a 10-connection pipelined pool each run BEGIN + a one-row statement +
 * COMMIT as one pipeline, as the hot write paths do; the corked and uncorked variants alternate in
 * rounds of BENCH_SECONDS (default 5) on the same pool, so both see the same machine.
 * Needs PostgreSQL at BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test).
 */
import pg from 'pg';
import { corked, type PipelinedPoolConfig } from '../packages/shared/src/db/pg-internals.js';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const pool = new pg.Pool({ connectionString: url, max: 10, pipeline: true } satisfies PipelinedPoolConfig);
const statement = { name: 'cork_bench', text: 'SELECT $1::int + 1 AS n', values: [1] };

async function once(client: pg.PoolClient, cork: boolean): Promise<void> {
  const submit = () => [client.query('BEGIN'), client.query(statement), client.query('COMMIT')];
  await Promise.all(cork ? corked(client, submit) : submit());
}

async function round(cork: boolean): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (Date.now() < end) {
        const client = await pool.connect();
        try {
          await once(client, cork);
          done++;
        } finally {
          client.release();
        }
      }
    }),
  );
  return done / seconds;
}

const results: Record<'corked' | 'uncorked', number[]> = { corked: [], uncorked: [] };
await round(true); // warm-up: connections and prepared statement
for (let i = 0; i < rounds; i++) {
  results.uncorked.push(await round(false));
  results.corked.push(await round(true));
}
await pool.end();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(results))
  console.log(
    `${name.padEnd(9)} median ${median(xs).toFixed(0)} pipelines/s  rounds ${xs.map((x) => x.toFixed(0)).join(' ')}`,
  );
console.log(`corked / uncorked: ${(median(results.corked) / median(results.uncorked)).toFixed(3)}`);
