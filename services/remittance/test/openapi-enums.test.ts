import { checkLists, type Exposure, enumProblems } from '@app/shared/test/openapi-enums';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.js';

// Issue 25 item 6: enum-like fields are enums. Every column with a CHECK (... IN (...)) list, read
// back from the migrated database, is either shown in the answers (the pattern names its fields as
// `METHOD /path .field`, both surfaces) or internal (the reason given). Each field it names must be
// an OpenAPI enum with exactly the CHECK's values (a one-value literal, such as a remittance's
// `type`, must be one of them): a free string, a stale list or a new CHECK column left
// unclassified fails here.
const EXPOSURE: Record<string, Exposure> = {
  'card_spending_limits.limit_type': { fields: / \S*\.limitType$/ },
  'cards.status': { fields: /^\w+ \/(api|v1)\/cards(\/\{id\})? \.data(\[\])?\.status$/ },
  'cards.type': { fields: /^\w+ \/(api|v1)\/cards(\/\{id\})? \.data(\[\])?\.type$/ },
  'complaints.category': { fields: /^\w+ \/(api|v1)\/complaints\S* \.data(\[\])?\.category$/ },
  'data_access_requests.status': { internal: 'the data export lists these rows as they are stored (free-form rows)' },
  'data_access_requests.type': { internal: 'the data export lists these rows as they are stored (free-form rows)' },
  'eid_auth_requests.platform': { internal: 'a sign-in in flight, never returned' },
  'gdpr_consents.consent_type': { fields: /^\w+ \/(api|v1)\/consents \.data(\[\])?\.consent_type$/ },
  'notifications.type': { fields: /^\w+ \/(api|v1)\/notifications \.data\[\]\.type$/ },
  'ob_consents.scope': { fields: /^\w+ \/(api|v1)\/open-banking\/consents\S* \.data(\[\])?\.scope$/ },
  'ob_consents.status': {
    fields:
      /^\w+ \/(api|v1)\/(open-banking\/consents\S* \.data(\[\])?\.status|bank-accounts\S* \.data(\[\])?\.consentStatus)$/,
  },
  'ob_consents.surface': { internal: 'where a consent was started (its callback target), never returned' },
  'payment_initiations.surface': { internal: 'where a payment was started (its callback target), never returned' },
  'recipients.country': { fields: /^\w+ \/(api|v1)\/recipients\S* \.data(\[\])?\.country$/ },
  'recipients.currency': { fields: /^\w+ \/(api|v1)\/recipients\S* \.data(\[\])?\.currency$/ },
  'sandbox_bank_consents.status': { internal: "the sandbox bank's own consents, never returned" },
  'sandbox_bank_payments.status': { internal: "the sandbox bank's own payments, never returned" },
  'sessions.revoked_reason': { internal: 'why a session ended, never returned' },
  'sessions.surface': { internal: 'the surface a session was made for, never returned' },
  'transactions.status': {
    fields: /^\w+ \/(api|v1)\/(transactions|merchants\/transactions)\S* \.data(\[\])?\.status$/,
  },
  'transactions.type': { fields: /^\w+ \/(api|v1)\/transactions\S* \.data(\[\])?\.type$/ },
  'user_settings.currency': { fields: /^\w+ \/(api|v1)\/settings \.data\.currency$/ },
  'user_settings.language': { fields: /^\w+ \/(api|v1)\/settings \.data\.language$/ },
  'users.role': { fields: / \S*\.role$/ },
};

let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp({
    FEATURE_CARDS: 'true',
    FEATURE_PHYSICAL_CARDS: 'true',
    FEATURE_CARD_PIN: 'true',
    FEATURE_SPENDING_LIMITS: 'true',
    FEATURES_NOTIFICATIONS: 'true',
  });
});
afterAll(() => env?.close());

describe('CHECK-listed columns in the OpenAPI document', () => {
  it('are enums with the CHECK values wherever an answer shows them', async () => {
    const checks = await checkLists(env.db.system);
    expect(checks.get('cards.status')).toEqual(['active', 'frozen', 'cancelled']);
    expect(enumProblems(env.app.swagger(), checks, EXPOSURE)).toEqual([]);
  });
});
