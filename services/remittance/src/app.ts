import { closeRedis, connectRedis } from '@app/shared/counters';
import type { Database } from '@app/shared/db/database';
import { createHttp } from '@app/shared/http';
import { KeptPages } from '@app/shared/kept-pages';
import { listenForInvalidations } from '@app/shared/notified-cache';
import { registerOpenApi } from '@app/shared/openapi';
import { registerRateLimits } from '@app/shared/rate-limits';
import { collectRoutes, type RouteEntry, registerPublic } from '@app/shared/routes';
import { createScheduler, runExclusive, type Scheduler } from '@app/shared/scheduler';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DB } from './db/types.js';
import { AppError, registerErrorHandling } from './errors.js';
import { JOB_LOCKS } from './jobs/job-locks.js';
import { perMinuteLimits } from './lib/limits.js';
import { createTokenService } from './lib/tokens.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import {
  createSessionService,
  SESSION_CHANNEL,
  type SessionService,
  sessionCache,
} from './modules/auth/sessions.service.js';
import { deleteExpiredEidRows } from './modules/auth-eid/eid.repository.js';
import { eidRoutes } from './modules/auth-eid/eid.routes.js';
import { createEidService, type EidService } from './modules/auth-eid/eid.service.js';
import { createMockClient, createOidcClient } from './modules/auth-eid/eid-client.js';
import { cardsRoutes } from './modules/cards/cards.routes.js';
import { gdprRoutes } from './modules/gdpr/gdpr.routes.js';
import { purgeExpiredAccounts, rewrapLegacyNationalIdHashes } from './modules/gdpr/retention.repository.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { merchantsRoutes } from './modules/merchants/merchants.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { createEnableBankingProvider } from './modules/open-banking/enable-banking/provider.js';
import { openBankingRoutes } from './modules/open-banking/open-banking.routes.js';
import {
  consentRefusedByBank,
  expireConsents,
  notifyRenewalsDue,
  type OpenBankingDeps,
  syncAllUnattended,
} from './modules/open-banking/open-banking.service.js';
import { createSandboxProvider } from './modules/open-banking/providers/sandbox.js';
import { deleteExpiredKeys } from './modules/payments/idempotency.js';
import { paymentsRoutes } from './modules/payments/payments.routes.js';
import { DEFAULT_TIMING, type PaymentDeps, resumePayments, settle } from './modules/payments/payments.service.js';
import { ratesRoutes } from './modules/rates/rates.routes.js';
import { createRatesService, type RatesService } from './modules/rates/rates.service.js';
import { recipientsRoutes } from './modules/recipients/recipients.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { transactionsRoutes } from './modules/transactions/transactions.routes.js';
import { webAppRoutes } from './modules/web-app/web-app.routes.js';
import { OPERATION_DOCS } from './operation-docs.js';
import { registerSurfaceAuth, requireSurfaceOrPublic } from './plugins/authenticate.js';

/** The services built once here; each route plugin gets the ones it uses (tests reach them as `app.ctx`). */
export interface AppContext {
  config: Readonly<Config>;
  db: Database<DB>;
  sessions: SessionService;
  eid: EidService;
  openBanking: OpenBankingDeps;
  rates: RatesService;
  /** The payment functions' deps (payments.service.ts); tests adjust `timing`. */
  payments: PaymentDeps;
  /** The sandbox bank's consent page (OPEN_BANKING_PROVIDER=sandbox only). */
  sandbox: { authorize(externalConsentId: string, approve: boolean): Promise<string | null> } | null;
}

export interface BuildOptions {
  /** Feed fetcher for the rates job (tests pass a recorded response). */
  fetch?: typeof fetch;
}

/** The whole remittance service, ready to listen (server.ts) or to take app.inject (tests). */
export async function buildApp(
  config: Readonly<Config>,
  db: Database<DB>,
  opts: BuildOptions = {},
): Promise<FastifyInstance & { ctx: AppContext; scheduler: Scheduler; remitRoutes: RouteEntry[] }> {
  const app = createHttp({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    securityHeaders: {},
    acceptedWeaknesses: config.acceptedWeaknesses,
  });
  registerErrorHandling(app);
  // Every route, public ones included, for the security suite (test/route-security.test.ts).
  const remitRoutes = collectRoutes(app);
  requireSurfaceOrPublic(app);

  // Infrastructure.
  await app.register(cookie);
  // Its preflight route answers browsers before they send a token.
  await registerPublic(app, cors, { origin: config.allowedOrigins, credentials: true });
  // Redis holds the rate-limit counters only, so it is not connected while limits are off.
  const redis = config.rateLimits && config.redisUrl ? await connectRedis(config.redisUrl) : null;
  perMinuteLimits(app);
  await registerRateLimits(app, {
    enabled: config.rateLimits,
    redis,
    nameSpace: config.rateLimitPrefix,
    max: 100,
    // Redis unreachable: each instance counts in memory until it answers again (issue 33 item 12).
    skipOnError: false,
    memoryFallback: true,
    tooMany: (retryAfter) => new AppError('rate_limited', `Too many requests, retry in ${retryAfter} seconds`),
  });
  await registerOpenApi(app, {
    title: 'Remittance and payments API',
    version: config.version,
    description: 'Web backend under /api (cookie app_token) and standalone API under /v1 (Bearer token).',
    securitySchemes: {
      cookie: { type: 'apiKey', in: 'cookie', name: 'app_token' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    describe: (method, url) => OPERATION_DOCS[`${method} ${url.replace(/^\/(api|v1)(?=\/)/, '')}`],
  });

  // Application services.
  const tokens = createTokenService(config.jwt);
  // The sessions this instance has checked, dropped when PostgreSQL notifies a change to the
  // session, its user or the user's bank accounts (SESSION_CACHE=off: read on every request).
  const keptSessions = sessionCache(config.sessionCache.maxAgeMs);
  const stopListening = await listenForInvalidations(
    db.raw,
    SESSION_CHANNEL,
    keptSessions,
    config.sessionCache.enabled,
  );
  app.addHook('onClose', async () => stopListening());
  const sessions = createSessionService({
    db: db.system,
    tokens,
    database: db,
    cache: keptSessions,
    limits: config.sessions,
    onReuse: (reuse) => app.log.warn(reuse, 'refresh token reused: the whole login was ended'),
  });
  const eidClient = config.eid.mock
    ? createMockClient(config.eid, db.system, config.publicUrl)
    : createOidcClient(config.eid, { allowHttp: config.nodeEnv !== 'production' });
  const sandbox = createSandboxProvider(db.system, {
    publicUrl: config.publicUrl,
    settlementMs: config.openBanking.sandboxSettlementMs,
  });
  // OPEN_BANKING_PROVIDER: the sandbox bank, or Enable Banking (linking banks, balances, and
  // payments authorized by the user at the bank).
  const eb = config.openBanking.enableBanking;
  const provider = eb ? createEnableBankingProvider({ ...eb, consentDays: config.openBanking.consentDays }) : sandbox;
  const openBanking: OpenBankingDeps = { db, provider, config };
  const ctx: AppContext = {
    config,
    db,
    sessions,
    eid: createEidService({ db: db.system, config, client: eidClient, sessions }),
    openBanking,
    rates: createRatesService({ db: db.system, config, fetch: opts.fetch }),
    // A payment's new balance shows on this instance's next GET /auth/me (balances are not notified).
    payments: {
      system: db.system,
      provider,
      balancesMoved: (userId) => keptSessions.invalidate(`u:${userId}`),
      callbackUrl: `${config.publicUrl.replace(/\/$/, '')}/api/payments/callback`,
      timing: { ...DEFAULT_TIMING },
      consentRefused: (userId, externalConsentId) => consentRefusedByBank(db, { userId, externalConsentId }),
    },
    sandbox: eb ? null : sandbox,
  };

  // The history pages this instance keeps, both surfaces' (transactions.sql.ts): at most 2,000 pages
  // of at most 16,000 characters (a page of 50, the largest, is about 10,000).
  const historyPages = new KeptPages(2_000, 16_000);

  // Routes: the same handlers on both surfaces (R1).
  for (const [surface, prefix] of [
    ['web', '/api'],
    ['api', '/v1'],
  ] as const) {
    await app.register(
      async (scope) => {
        registerSurfaceAuth(scope, { surface, sessions, db, allowedOrigins: config.allowedOrigins });
        const { payments, rates, eid } = ctx;
        await scope.register(healthRoutes({ config, db }));
        await scope.register(ratesRoutes({ rates }));
        await scope.register(eidRoutes(surface, { config, db, eid }));
        await scope.register(authRoutes(surface, { config, sessions }));
        await scope.register(openBankingRoutes(surface, { openBanking, sandbox: ctx.sandbox, sessions }));
        await scope.register(gdprRoutes(surface, { config, openBanking, sessions }));
        if (config.features.cards) await scope.register(cardsRoutes({ config }));
        await scope.register(recipientsRoutes());
        await scope.register(paymentsRoutes(surface, { payments }));
        await scope.register(transactionsRoutes({ receiptIssuer: config.receiptIssuer, keptPages: historyPages }));
        await scope.register(merchantsRoutes());
        if (config.features.notifications) await scope.register(notificationsRoutes());
        await scope.register(settingsRoutes());
      },
      { prefix },
    );
  }

  // The web app at / (W2, W3): after the API, so its fallback never shadows an API path.
  await webAppRoutes(app, { root: config.webDir });

  // Background jobs (G12: each claims an advisory lock; all stop when the app closes).
  const scheduler = createScheduler(app);
  scheduler.add({
    name: 'consent-expiry',
    intervalMs: config.openBanking.expiryJobIntervalMs,
    runOnStart: true,
    run: () =>
      runExclusive(db.system, db.kind, JOB_LOCKS.consentExpiry, async () => {
        const expired = await expireConsents(ctx.openBanking);
        await deleteExpiredEidRows(db.system, new Date());
        if (expired.length) app.log.info({ count: expired.length }, 'open banking consents expired');
      }),
  });
  // Issue 30: consents expiring within CONSENT_RENEWAL_WINDOW, notified once each (renewal offered in the API).
  scheduler.add({
    name: 'consent-renewal',
    intervalMs: config.openBanking.expiryJobIntervalMs,
    runOnStart: true,
    run: () =>
      runExclusive(db.system, db.kind, JOB_LOCKS.consentRenewal, async () => {
        const notified = await notifyRenewalsDue(ctx.openBanking);
        if (notified.length) app.log.info({ count: notified.length }, 'open banking consents due for renewal notified');
      }),
  });
  scheduler.add({
    name: 'balance-sync',
    intervalMs: config.openBanking.balanceSyncIntervalMs,
    runOnStart: false,
    run: () => runExclusive(db.system, db.kind, JOB_LOCKS.balanceSync, () => syncAllUnattended(ctx.openBanking)),
  });
  // Two instances may run it at once: each claims its batch with FOR UPDATE SKIP LOCKED.
  scheduler.add({
    name: 'payment-settlement',
    intervalMs: config.openBanking.settlementIntervalMs,
    runOnStart: true,
    run: async () => {
      const moved = await settle(ctx.payments);
      if (moved.completed || moved.failed) app.log.info(moved, 'payments settled');
    },
  });
  // Issue 30: intents left by a crash or a timeout are sent again with their end-to-end id, and
  // payments waiting for the user's authorization at the bank are asked about.
  scheduler.add({
    name: 'payment-recovery',
    intervalMs: config.openBanking.settlementIntervalMs,
    runOnStart: true,
    run: () =>
      runExclusive(db.system, db.kind, JOB_LOCKS.paymentRecovery, async () => {
        const seen = await resumePayments(ctx.payments);
        if (seen.resumed || seen.polled) app.log.info(seen, 'payments resumed or polled');
      }),
  });
  scheduler.add({
    name: 'idempotency-cleanup',
    intervalMs: config.openBanking.settlementIntervalMs > 0 ? 3_600_000 : 0,
    runOnStart: false,
    run: () =>
      runExclusive(db.system, db.kind, JOB_LOCKS.idempotencyCleanup, () => deleteExpiredKeys(db.system, new Date())),
  });
  // Issue 33 item 6: legacy national id hashes rewrapped as HMACs once, then the accounts whose
  // anti-money-laundering retention has ended purged (docs/data-retention.md).
  scheduler.add({
    name: 'retention',
    intervalMs: config.retention.purgeIntervalMs,
    runOnStart: true,
    run: () =>
      runExclusive(db.system, db.kind, JOB_LOCKS.retention, async () => {
        const rewrapped = await rewrapLegacyNationalIdHashes(db.system, config.nationalIdPepper);
        if (rewrapped) app.log.info({ rewrapped }, 'national id hashes rewrapped as HMAC');
        const purged = await purgeExpiredAccounts(db.system, new Date());
        if (purged) app.log.info({ purged }, 'erased accounts purged at the end of their retention');
      }),
  });
  if (config.rates.feed) {
    scheduler.add({
      name: 'rates-refresh',
      intervalMs: config.rates.refreshIntervalMs,
      runOnStart: true,
      run: () =>
        runExclusive(db.system, db.kind, JOB_LOCKS.ratesRefresh, async () => {
          const updated = await ctx.rates.refreshFromFeed();
          app.log.info({ updated }, 'exchange rates refreshed from Norges Bank');
        }),
    });
  }
  app.addHook('onClose', async () => {
    if (redis) await closeRedis(redis);
  });

  return Object.assign(app, { ctx, scheduler, remitRoutes });
}
