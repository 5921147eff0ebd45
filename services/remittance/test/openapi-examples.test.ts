import { writeFileSync } from 'node:fs';
import {
  exampleProblems,
  openApiOperations,
  requestOf,
  responseOf,
  schemaProblems,
  undocumented,
} from '@app/shared/test/openapi-docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  initiateMobile,
  linkSandboxBank,
  mockAuthorize,
  nextPid,
  signInMobile,
} from './helpers.js';

// Issue 25 item 6: the examples the reference page (/docs) shows cannot rot. Every example of the
// document (both surfaces, every feature on) fits its own schema, and each main operation's example
// request, sent to the app on a fresh database (/v1, Bearer), is answered with the documented
// success status and a body that fits the documented answer schema. Only what the app makes per
// request (ids of records, the sign-in's single-use code, state and PKCE verifier) is replaced by
// the fixtures' own; every other field is sent as the example shows it.
type Json = Record<string, any>;

let env: Awaited<ReturnType<typeof buildTestApp>>;
let ops: Map<string, Json>;

beforeAll(async () => {
  env = await buildTestApp({
    FEATURE_CARDS: 'true',
    FEATURE_PHYSICAL_CARDS: 'true',
    FEATURE_CARD_PIN: 'true',
    FEATURE_SPENDING_LIMITS: 'true',
  });
  ops = new Map(await openApiOperations(env.app));
});
afterAll(() => env?.close());

/** The main operations (issue 25 item 6), on both surfaces: an example answer, and a request when they take a body. */
const MAIN = [
  'POST /auth/eid/callback',
  'GET /auth/me',
  'POST /recipients',
  'POST /transactions/disclosure',
  'POST /transactions/remittance',
  'POST /transactions/qr-payment',
  'GET /transactions',
].flatMap((op) => {
  const [method, path] = op.split(' ');
  // The web callback is the GET redirect; the JSON sign-in is the mobile surface's.
  return path === '/auth/eid/callback' ? [`${method} /v1${path}`] : [`${method} /api${path}`, `${method} /v1${path}`];
});

const answers: Record<string, unknown> = {};

/**
 * Sends an operation's example request (with `refs` put in place of what the app makes per
 * request) and checks the answer against the documented success status and schema.
 */
async function send(name: string, opts: { url?: string; token?: string; refs?: Json; headers?: Json } = {}) {
  const op = ops.get(name);
  if (!op) throw new Error(`${name} is not in the document`);
  const [method, path] = name.split(' ');
  const { example } = requestOf(op);
  for (const key of Object.keys(opts.refs ?? {})) expect(example, `${name}: ${key}`).toHaveProperty(key);
  const res = await env.app.inject({
    method: method as 'GET',
    url: opts.url ?? path,
    headers: { ...(opts.token ? bearer(opts.token).headers : {}), ...opts.headers },
    ...(example === undefined ? {} : { payload: { ...(example as Json), ...opts.refs } }),
  });
  const documented = responseOf(op);
  expect(res.statusCode, `${name}: ${res.body}`).toBe(Number(documented.status));
  const body = res.json();
  answers[name] = body;
  expect(schemaProblems(documented.schema, body), name).toEqual([]);
  return body as Json;
}

describe('the examples of the OpenAPI document', () => {
  it('give every operation a summary and a description', () => {
    expect(undocumented([...ops])).toEqual([]);
  });

  it('show an example answer on every main operation and an example request on those that take a body', () => {
    const missing: string[] = [];
    for (const name of MAIN) {
      const op = ops.get(name);
      if (!op) {
        missing.push(`${name}: not in the document`);
        continue;
      }
      const request = requestOf(op);
      if (request.schema && request.example === undefined) missing.push(`${name}: request`);
      if (responseOf(op).example === undefined) missing.push(`${name}: answer`);
    }
    expect(missing).toEqual([]);
  });

  it('fit their own schemas (every request and answer example of the document)', () => {
    expect(exampleProblems([...ops])).toEqual([]);
  });

  it('are accepted by the app as documented when sent to it, and its answers fit the documented schemas', async () => {
    // A merchant to pay by QR.
    const merchant = await signInMobile(env.app, { pid: nextPid() });
    await linkSandboxBank(env.app, bearer(merchant.token), '/v1');
    const registered = await env.app.inject({
      method: 'POST',
      url: '/v1/merchants/register',
      ...bearer(merchant.token),
      payload: { businessName: 'Kafé Nord AS', orgNumber: '923609016', bankAccount: 'NO9386011117947' },
    });
    expect(registered.statusCode, registered.body).toBe(201);

    // The payer signs in with the mobile flow the example documents.
    const start = await initiateMobile(env.app);
    const { code, state } = await mockAuthorize(env.app, start.redirectUrl, { pid: nextPid() });
    const signedIn = await send('POST /v1/auth/eid/callback', { refs: { code, state, code_verifier: start.verifier } });
    const token = signedIn.token as string;
    await linkSandboxBank(env.app, bearer(token), '/v1');
    await send('GET /v1/auth/me', { token });
    const recipient = (await send('POST /v1/recipients', { token })).data;
    await send('POST /v1/transactions/disclosure', { token, refs: { recipientId: recipient.id } });
    await send('POST /v1/transactions/remittance', {
      token,
      refs: { recipientId: recipient.id },
      headers: { 'idempotency-key': 'example-remittance-1' },
    });
    await send('POST /v1/transactions/qr-payment', {
      token,
      refs: { merchantId: registered.json().data.merchantId },
      headers: { 'idempotency-key': 'example-qr-1' },
    });
    await send('GET /v1/transactions', { token });
    if (process.env.DUMP_EXAMPLES) writeFileSync(process.env.DUMP_EXAMPLES, JSON.stringify(answers, null, 2));
  });
});
