import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { CodedError, type Fault, fieldPath, issueFields, registerErrorEnvelope } from './errors.js';
import { createHttp } from './http.js';

const CATALOG = { teapot: 418, invalid: 422, missing: 404, broken: 500 } as const;
type Code = keyof typeof CATALOG;
class TestError extends CodedError<Code, string[]> {}

async function appWith(seen: Fault[] = []) {
  const app = createHttp({ logLevel: 'silent', trustProxy: false });
  registerErrorEnvelope<TestError>(app, {
    statusOf: (code) => CATALOG[code],
    fromFault: (fault) => {
      seen.push(fault);
      if (fault.kind === 'validation') return new TestError('invalid', 'bad input', fault.issues.flatMap(issueFields));
      if (fault.kind === 'not_found') return new TestError('missing', fault.route ? 'no route' : 'no thing');
      return new TestError('broken', 'hidden');
    },
    body: (err, status) => ({ code: err.code, status, message: err.message, details: err.details }),
  });
  app.get('/teapot', async () => {
    throw new TestError('teapot', 'short and stout', undefined, { 'retry-after': 3 });
  });
  app.get('/crash', async () => {
    throw new Error('secret internals');
  });
  app.post(
    '/items',
    { schema: { body: Type.Object({ items: Type.Array(Type.Object({ price: Type.Number() })) }) } },
    async () => 'ok',
  );
  await app.ready();
  return app;
}

describe('shared error envelope', () => {
  it('writes field paths one way: items[0].unitPrice', () => {
    expect(fieldPath('/items/0/unitPrice')).toBe('items[0].unitPrice');
    expect(fieldPath('/customer/address/12')).toBe('customer.address[12]');
    expect(fieldPath('')).toBe('');
    expect(
      issueFields({ keyword: 'required', instancePath: '/items/1', params: { requiredProperties: ['a', 'b'] } }),
    ).toEqual(['items[1].a', 'items[1].b']);
    expect(issueFields({ keyword: 'minimum', instancePath: '/amount' })).toEqual(['amount']);
  });

  it('answers a domain error with the status its catalog gives the code, and its headers', async () => {
    const app = await appWith();
    const res = await app.inject({ method: 'GET', url: '/teapot' });
    expect(res.statusCode).toBe(418);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json()).toEqual({ code: 'teapot', status: 418, message: 'short and stout' });
    await app.close();
  });

  it('lets the service name validation failures, unknown routes and crashes, and never leaks a crash message', async () => {
    const seen: Fault[] = [];
    const app = await appWith(seen);
    const invalid = await app.inject({ method: 'POST', url: '/items', payload: { items: [{ price: 'x' }] } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().details).toEqual(['items[0].price']);
    const unknown = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(unknown.json()).toMatchObject({ code: 'missing', status: 404, message: 'no route' });
    const crash = await app.inject({ method: 'GET', url: '/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('secret internals');
    expect(seen.map((f) => f.kind)).toEqual(['validation', 'not_found', 'internal']);
    await app.close();
  });
});
