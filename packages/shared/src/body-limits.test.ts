import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp } from './http.js';
import { sendOversized, sendWriteFirst } from './test/oversize.js';

// Issue 25 item 2 at the platform level: a limit large enough that the rest of the body cannot
// sit in the loopback buffers, so a server that answers and closes mid-body resets the client.
const MB = 1024 * 1024;
const app = createHttp({ logLevel: 'silent', trustProxy: false, bodyLimit: 8 * MB });
// The services' error handlers answer in their envelopes; this one answers with the code.
app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _request, reply) =>
  reply.status(err.statusCode ?? 500).send({ code: err.code }),
);
app.post('/echo', async (request) => ({ size: JSON.stringify(request.body).length }));
let origin: string;

beforeAll(async () => {
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('a body over the limit, under 4x the limit', () => {
  it('is read to its end before the 413, so a client that writes everything first reads it', async () => {
    const body = Buffer.from(`{"a":"${'x'.repeat(24 * MB)}"}`);
    const res = await sendWriteFirst(origin, '/echo', { headers: { 'content-type': 'application/json' }, body });
    expect(res).toEqual({ status: 413, body: expect.stringContaining('FST_ERR_CTP_BODY_TOO_LARGE'), writeError: null });
  });

  it('reaches an undici client streaming it, declared or chunked, with Connection: close', async () => {
    for (const declareLength of [true, false]) {
      const res = await sendOversized(origin, '/echo', {
        headers: { 'content-type': 'application/json' },
        prefix: '{"a":"',
        fill: 'x',
        size: 24 * MB,
        suffix: '"}',
        declareLength,
      });
      expect([declareLength, res.status, res.connection, res.sent]).toEqual([declareLength, 413, 'close', res.total]);
    }
  });

  it('leaves a body within the limit alone', async () => {
    const res = await sendOversized(origin, '/echo', {
      headers: { 'content-type': 'application/json' },
      prefix: '{"a":"',
      fill: 'x',
      size: MB,
      suffix: '"}',
      declareLength: true,
    });
    expect([res.status, res.body]).toEqual([200, { size: MB + 8 }]);
  });
});

describe('a body past 4x the limit', () => {
  it('is not read to its end: the client is cut off, and the server goes on serving', async () => {
    const body = Buffer.from(`{"a":"${'x'.repeat(40 * MB)}"}`);
    const res = await sendWriteFirst(origin, '/echo', { headers: { 'content-type': 'application/json' }, body });
    expect(res.writeError).toMatch(/EPIPE|ECONNRESET/);
    const after = await sendOversized(origin, '/echo', {
      headers: { 'content-type': 'application/json' },
      prefix: '{"a":"',
      fill: 'x',
      size: 10,
      suffix: '"}',
      declareLength: true,
    });
    expect(after.status).toBe(200);
  });
});
