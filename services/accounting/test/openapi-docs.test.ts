import { isDeepStrictEqual } from 'node:util';
import { openApiOperations, undocumented } from '@app/shared/test/openapi-docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

// Issue 25 item 6: every operation of the OpenAPI document has a summary and a description, the
// main operations show an example request, and enum-like fields are enums. A route added without
// its entry in src/lib/operation-docs.ts fails here.
let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

describe('the OpenAPI document', () => {
  it('gives every operation a summary and a description', async () => {
    const ops = await openApiOperations(h.app);
    expect(ops.length).toBeGreaterThan(60);
    expect(undocumented(ops)).toEqual([]);
  });

  it('shows an example request on the main operations', async () => {
    const ops = new Map(await openApiOperations(h.app));
    for (const name of ['POST /api/v1/auth/register', 'POST /api/v1/invoices', 'PATCH /api/v1/invoices/{id}/status']) {
      const content = ops.get(name)?.requestBody?.content?.['application/json'];
      expect(content?.example, name).toBeDefined();
    }
  });

  it('lists the invoice actions as an enum', async () => {
    const ops = new Map(await openApiOperations(h.app));
    const schema = ops.get('PATCH /api/v1/invoices/{id}/status')?.requestBody?.content?.['application/json']?.schema;
    expect(schema.properties.action.enum).toEqual(['send', 'mark-paid', 'cancel']);
  });

  it('asks for the bearer token on exactly the operations whose route needs a signed-in caller', async () => {
    const isPublic = new Map(
      h.app.routeTable.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r.public]),
    );
    const ops = await openApiOperations(h.app);
    const mismatched = ops.filter(([name, op]) => {
      const open = isPublic.get(name);
      return (
        open === undefined || (open ? op.security !== undefined : !isDeepStrictEqual(op.security, [{ bearerAuth: [] }]))
      );
    });
    expect(mismatched.map(([name, op]) => [name, isPublic.get(name), op.security])).toEqual([]);
    expect(ops.filter(([name]) => isPublic.get(name)).length).toBeGreaterThan(3);
  });
});
