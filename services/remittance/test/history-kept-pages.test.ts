import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { buildTestApp, linkSandboxBank, nextPid, signInWeb, type TestApp, testConfig, web } from './helpers.js';

/**
 * The history pages an instance keeps (issue 31; transactions.sql.ts, migration 20261203000100):
 * a page is sent again while the user's version (highest change_seq) is unchanged, and computed
 * again as soon as any of the user's transactions is inserted or changes, whoever wrote it.
 */
let env: Awaited<ReturnType<typeof buildTestApp>>;
let other: TestApp;
type Auth = ReturnType<typeof web>;
let alice: { auth: Auth; userId: string; recipientId: string };
let bob: { auth: Auth; userId: string; recipientId: string };

const system = () => env.db.system;

async function user(app: TestApp, first: string): Promise<typeof alice> {
  const auth = web((await signInWeb(app, { pid: nextPid(), given_name: first, family_name: 'Nordmann' })).cookie);
  await linkSandboxBank(app, auth, '/api');
  const me = (await app.inject({ method: 'GET', url: '/api/auth/me', ...auth })).json();
  const recipient = await app.inject({
    method: 'POST',
    url: '/api/recipients',
    ...auth,
    payload: { name: `Primalac ${first}`, country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
  });
  expect(recipient.statusCode, recipient.body).toBe(201);
  return { auth, userId: me.data.id ?? me.data.user.id, recipientId: recipient.json().data.id };
}

async function send(app: TestApp, who: typeof alice, amount: number): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/transactions/remittance',
    ...who.auth,
    payload: { recipientId: who.recipientId, amount },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function list(app: TestApp, who: typeof alice, query = 'limit=2'): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/transactions?${query}`, ...who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** The page as computed from the rows now, with no kept page (a fresh instance). */
async function computed(who: typeof alice, query = 'limit=2'): Promise<string> {
  const fresh = await buildApp(testConfig(), env.db);
  try {
    return await list(fresh, who, query);
  } finally {
    await fresh.close();
  }
}

const versionOf = async (userId: string) =>
  (
    await sql<{
      v: string | null;
    }>`SELECT max(change_seq)::text AS v FROM transactions WHERE user_id = ${userId}`.execute(system())
  ).rows[0].v;

beforeAll(async () => {
  env = await buildTestApp();
  // A second instance on the same database: its own kept pages.
  other = await buildApp(testConfig(), env.db);
  await other.ready();
  alice = await user(env.app, 'Alice');
  bob = await user(env.app, 'Bob');
  for (const amount of [100, 200, 300]) await send(env.app, alice, amount);
  await send(env.app, bob, 150);
});
afterAll(async () => {
  await other?.close();
  await env?.close();
});

describe('kept history pages (the version of migration 20261203000100)', () => {
  it('sends the kept page while the version is unchanged, and computes it again once it moves', async () => {
    const first = await list(env.app, alice);
    expect(first).toBe(await computed(alice));
    const newest = JSON.parse(first).data[0].id as string;
    // A change the version does not hear of (its trigger off): the kept page is what is sent.
    await sql`ALTER TABLE transactions DISABLE TRIGGER transactions_changed`.execute(system());
    try {
      await sql`UPDATE transactions SET recipient_name = 'Mimo verzije' WHERE id = ${newest}`.execute(system());
    } finally {
      await sql`ALTER TABLE transactions ENABLE TRIGGER transactions_changed`.execute(system());
    }
    expect(await list(env.app, alice)).toBe(first);
    // Any change with the trigger on raises the version: the next request computes the page.
    await sql`UPDATE transactions SET recipient_name = 'Primalac Alice' WHERE id = ${newest}`.execute(system());
    const again = await list(env.app, alice);
    expect(again).toBe(await computed(alice));
    expect(JSON.parse(again).data[0].recipientName).toBe('Primalac Alice');
  });

  it('raises the version on a payment and on each status change, not on an update that changes nothing or rolls back', async () => {
    const v0 = BigInt((await versionOf(alice.userId))!);
    const id = await send(env.app, alice, 400);
    const v1 = BigInt((await versionOf(alice.userId))!);
    expect(v1).toBeGreaterThan(v0);
    await sql`UPDATE transactions SET status = status WHERE id = ${id}`.execute(system());
    expect(BigInt((await versionOf(alice.userId))!)).toBe(v1);
    await expect(
      system()
        .transaction()
        .execute(async (trx) => {
          await sql`UPDATE transactions SET status = 'failed' WHERE id = ${id}`.execute(trx);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(BigInt((await versionOf(alice.userId))!)).toBe(v1);
    const status = JSON.parse(await list(env.app, alice)).data[0].status as string;
    const next = status === 'completed' ? 'failed' : 'completed';
    await sql`UPDATE transactions SET status = ${next} WHERE id = ${id}`.execute(system());
    expect(BigInt((await versionOf(alice.userId))!)).toBeGreaterThan(v1);
    expect(JSON.parse(await list(env.app, alice)).data[0]).toMatchObject({ id, status: next });
  });

  it("sees another instance's payment at once, and each instance's page is the computed one", async () => {
    const mine = await list(env.app, alice);
    const theirs = await list(other, alice);
    expect(theirs).toBe(mine);
    const id = await send(other, alice, 500);
    for (const app of [env.app, other]) {
      const page = JSON.parse(await list(app, alice));
      expect(page.data[0].id).toBe(id);
      expect(page.pagination.total).toBe(JSON.parse(mine).pagination.total + 1);
    }
    expect(await list(env.app, alice)).toBe(await computed(alice));
  });

  it("keeps one user's pages apart from another's, and each filter and page apart", async () => {
    const queries = ['limit=2', 'limit=2&page=2', 'limit=3', 'type=remittance', 'status=completed', 'type=qr_payment'];
    const pages = new Map<string, string>();
    for (const q of queries) pages.set(q, await list(env.app, alice, q));
    for (const q of queries) {
      expect(await list(env.app, alice, q), q).toBe(pages.get(q));
      expect(pages.get(q), q).toBe(await computed(alice, q));
    }
    // Bob's same query after Alice's is his own page: his one payment, none of hers.
    const bobs = JSON.parse(await list(env.app, bob));
    expect(bobs.pagination.total).toBe(1);
    expect(bobs.data.map((t: { recipientName: string }) => t.recipientName)).toEqual(['Primalac Bob']);
    // A payment of Bob's moves only his version: Alice's kept page is still hers and current.
    await send(env.app, bob, 160);
    expect(JSON.parse(await list(env.app, bob)).pagination.total).toBe(2);
    expect(await list(env.app, alice)).toBe(await computed(alice));
  });

  it('answers a user without transactions with an empty page, and the first payment shows', async () => {
    const carol = await user(env.app, 'Carol');
    expect(JSON.parse(await list(env.app, carol))).toEqual({ data: [], pagination: { page: 1, limit: 2, total: 0 } });
    expect(await versionOf(carol.userId)).toBeNull();
    const id = await send(env.app, carol, 170);
    expect(JSON.parse(await list(env.app, carol)).data.map((t: { id: string }) => t.id)).toEqual([id]);
  });
});
