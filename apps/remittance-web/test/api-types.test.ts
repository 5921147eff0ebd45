import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { API_TYPES_FILE, generateApiTypes } from '../scripts/api-types.js';

// The web app's client is typed from the remittance service's own /openapi.json: a route or schema
// change that is not regenerated (`npm run api:types`) fails here, and then in the app's typecheck.
it('the committed API types are what the current /openapi.json produces', async () => {
  const committed = readFileSync(API_TYPES_FILE, 'utf8');
  const current = await generateApiTypes();
  expect(committed === current, 'src/api/schema.generated.ts is stale: run `npm run api:types`').toBe(true);
}, 120_000);
