import { openApiOperations, undocumented } from '@app/shared/test/openapi-docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.js';

// Issue 25 item 6: every operation of the OpenAPI document (both surfaces, every feature on) has
// a summary and a description, and the main operations show an example request. A route added
// without its entry in src/operation-docs.ts fails here.
let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp({
    FEATURE_CARDS: 'true',
    FEATURE_PHYSICAL_CARDS: 'true',
    FEATURE_CARD_PIN: 'true',
    FEATURE_SPENDING_LIMITS: 'true',
  });
});
afterAll(() => env?.close());

describe('the OpenAPI document', () => {
  it('gives every operation a summary and a description', async () => {
    const ops = await openApiOperations(env.app);
    expect(ops.length).toBeGreaterThan(80);
    expect(undocumented(ops)).toEqual([]);
  });

  it('shows an example request on the main operations', async () => {
    const ops = new Map(await openApiOperations(env.app));
    for (const name of [
      'POST /v1/transactions/remittance',
      'POST /api/recipients',
      'POST /v1/transactions/disclosure',
    ]) {
      expect(ops.get(name)?.requestBody?.content?.['application/json']?.example, name).toBeDefined();
    }
  });
});
