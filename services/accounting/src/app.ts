import { join } from 'node:path';
import { closeRedis, connectRedis, memoryCounterStore, redisCounterStore } from '@app/shared/counters';
import type { Database } from '@app/shared/db/database';
import { createHttp } from '@app/shared/http';
import { listenForInvalidations } from '@app/shared/notified-cache';
import { registerOpenApi } from '@app/shared/openapi';
import { collectRoutes, type RouteEntry, registerPublic } from '@app/shared/routes';
import { createScheduler } from '@app/shared/scheduler';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { DB } from './db/types.js';
import { createMailer } from './infra/mail/mailer.js';
import { localStorage } from './infra/storage/storage.js';
import { createVirusScanner } from './infra/virus-scanner/virus-scanner.js';
import { AccessTokens } from './lib/jwt.js';
import { OPERATION_DOCS } from './lib/operation-docs.js';
import { SecretBox } from './lib/secret-box.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { alertsRoutes } from './modules/alerts/alerts.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { bankingRoutes } from './modules/banking/banking.routes.js';
import { bankAccountBlock, type DocumentPayments } from './modules/banking/banking.service.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { currenciesRoutes } from './modules/currencies/currencies.routes.js';
import { einvoiceRoutes } from './modules/einvoice/einvoice.routes.js';
import {
  afterPaymentReportCommit,
  queueDeliveryAfterSend,
  recordPaymentReportIntent,
} from './modules/exchange-hr/delivery.service.js';
import {
  intermediaryDeliveryJob,
  intermediaryIntakeJob,
  intermediaryStatusJob,
} from './modules/exchange-hr/exchange.jobs.js';
import { intermediaryInvoiceRoutes, intermediaryRoutes } from './modules/exchange-hr/exchange.routes.js';
import { tellIntermediaryDecision } from './modules/exchange-hr/exchange.service.js';
import { exchangeRateFeedJob, feedSettings } from './modules/exchange-rates/ecb-feed.js';
import { exchangeRatesRoutes } from './modules/exchange-rates/exchange-rates.routes.js';
import { nbsFeedJob, nbsSettings } from './modules/exchange-rates/nbs-feed.js';
import { payExpenseIn } from './modules/expenses/expense-transitions.js';
import { expensesRoutes } from './modules/expenses/expenses.routes.js';
import { expenseAccountBlock, openExpensesBlock } from './modules/expenses/expenses.service.js';
import { fiscalDeliveryJob } from './modules/fiscalization-hr/fiscalization.jobs.js';
import {
  fiscalizationInvoiceRoutes,
  fiscalizationSettingsRoutes,
} from './modules/fiscalization-hr/fiscalization.routes.js';
import {
  afterInvoiceCommit,
  afterPurchaseCommit,
  recordInvoiceIntent,
  recordPurchaseIntent,
} from './modules/fiscalization-hr/fiscalization.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { todayIso } from './modules/invoices/invoice-status.js';
import { type InvoiceDeps, markInvoicePaid } from './modules/invoices/invoice-transitions.js';
import { invoicesRoutes, publicInvoicesRoutes } from './modules/invoices/invoices.routes.js';
import { invoiceLinesBlock, openInvoicesBlock } from './modules/invoices/invoices.service.js';
import { overdueInvoicesJob } from './modules/invoices/overdue-job.js';
import { ledgerFoldJob } from './modules/ledger/fold-job.js';
import { transactionsRoutes } from './modules/ledger/ledger.routes.js';
import { organizationRoutes } from './modules/organization/organization.routes.js';
import { RECEIPT_MAX_BYTES, type ReceiptDeps } from './modules/receipts/receipts.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { SEF_OPERATION_DOCS } from './modules/sef/sef.docs.js';
import { sefDeliveryJob, sefSyncJob } from './modules/sef/sef.jobs.js';
import { purchaseInvoicesRoutes, sefInvoiceRoutes, sefRoutes, sefSettingsRoutes } from './modules/sef/sef.routes.js';
import { queueAfterSend, type SefDeps } from './modules/sef/sef.service.js';
import { taxRatesRoutes } from './modules/tax-rates/tax-rates.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { webAppRoutes } from './modules/web-app/web-app.routes.js';
import { authPlugin, openApiSecurity, PRINCIPAL_CHANNEL, principalCache } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { limitsPlugin } from './plugins/limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** The whole accounting service, ready to listen or to be called with inject (STYLE 1). */
export async function buildApp(config: Readonly<Config>, db: Database<DB>): Promise<FastifyInstance> {
  // A JSON API needs no content security policy; the /docs page sets its own (swagger-ui staticCSP).
  const app = createHttp({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    securityHeaders: { contentSecurityPolicy: false },
    // The public invoice link's token is the capability: never logged.
    secretPaths: ['/api/v1/public/invoices/'],
    acceptedWeaknesses: config.acceptedWeaknesses,
  });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const ctx: AppContext = {
    config,
    db,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlMs),
    counters: redis ? redisCounterStore(redis, 'acc') : memoryCounterStore(),
    redis,
  };
  // Every route, public ones included: the security suite walks it (test/security.test.ts).
  app.decorate('routeTable', collectRoutes(app));
  app.addHook('onClose', async () => {
    await ctx.counters.close();
    if (redis) await closeRedis(redis);
  });

  // Infrastructure
  registerErrorHandling(app);
  // Its preflight route answers browsers before they send a token.
  await registerPublic(app, cors, {
    origin: config.corsOrigins,
    credentials: true,
    exposedHeaders: [
      'x-request-id',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'content-disposition',
    ],
  });
  await registerOpenApi(app, {
    title: 'Accounting API',
    version: config.version,
    description: 'Multi-tenant bookkeeping and invoicing for organizations in RS, BA and HR.',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    describe: (method, url) => OPERATION_DOCS[`${method} ${url}`] ?? SEF_OPERATION_DOCS[`${method} ${url}`],
    security: openApiSecurity,
  });
  // Multipart bodies (receipts, statements) are streamed by the routes that take them; the
  // per-route limits are tighter than these outer ones.
  await app.register(multipart, {
    limits: { fileSize: RECEIPT_MAX_BYTES, files: 2, fields: 30, fieldSize: 10_000, parts: 32 },
  });
  // The signed-in callers this instance has read, dropped when PostgreSQL notifies a change to
  // their session, user or organization (SESSION_CACHE=off: read on every request).
  const principals = principalCache(config.sessionCache.maxAgeMs);
  const stopListening = await listenForInvalidations(
    db.raw,
    PRINCIPAL_CHANNEL,
    principals,
    config.sessionCache.enabled,
  );
  app.addHook('onClose', async () => stopListening());
  await app.register(authPlugin, { db, tokens: ctx.tokens, principals });
  await app.register(limitsPlugin, { enabled: config.rateLimits, redis, counters: ctx.counters });

  // App services: built here, once, and handed to the routes that use them.
  const storage = localStorage(join(config.dataDir, 'files'));
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), log: app.log });
  app.addHook('onClose', async () => mailer.close());
  const invoices: InvoiceDeps = { config, db, storage, mailer, log: app.log };
  // E-invoice delivery (CONTRACT D, issue 28): SEF for Serbia.
  const sef: SefDeps = {
    config,
    db,
    invoices,
    box: config.sef.keyEncryptionKey ? new SecretBox(config.sef.keyEncryptionKey) : null,
    log: app.log,
  };
  // After send: SEF for RS, the information intermediary for HR (each a no-op for the other country).
  invoices.afterSend = async (scope, p, id) => {
    await queueAfterSend(sef, scope, p, id);
    await queueDeliveryAfterSend(sef, scope, p, id);
  };
  // Croatia (D5): the fiscalization message is recorded with the status change, sent after commit.
  // With the intermediary fiscalizing (fiscalizationBy: intermediary), the payment report goes
  // through it instead (recorded with mark-paid, sent after commit).
  invoices.recordIntent = async (trx, p, id, event) => {
    await recordInvoiceIntent(trx, p, id, event);
    await recordPaymentReportIntent(trx, p, id, event);
  };
  invoices.afterCommit = async (p, id, event) => {
    await afterInvoiceCommit(sef, p, id);
    await afterPaymentReportCommit(sef, p, id, event);
  };
  sef.hrPurchase = {
    recordIntent: recordPurchaseIntent,
    afterCommit: (orgId, id) => afterPurchaseCommit(sef, orgId, id),
    decide: (orgId, documentId, accepted, comment) =>
      tellIntermediaryDecision(sef, orgId, documentId, accepted, comment),
  };
  const receipts: ReceiptDeps = {
    scanner: createVirusScanner(config.clamav),
    storage,
    tmpDir: join(config.dataDir, 'tmp'),
  };
  if (receipts.scanner.kind === 'builtin') {
    app.log.warn(
      'no virus scanner configured (CLAMAV_SOCKET or CLAMAV_HOST): receipts are checked for the EICAR test file only',
    );
  }
  // Cross-module rules: what stops a contact's deletion.
  const contactDeleteBlockers = [openInvoicesBlock, openExpensesBlock] as const;
  // ... and an account's.
  const accountDeleteBlockers = [invoiceLinesBlock, expenseAccountBlock, bankAccountBlock] as const;
  // ... and how a bank line pays an invoice or an expense (its "pay and match", in one transaction).
  const documentPayments: DocumentPayments = {
    async pay(trx, p, doc, paidAt, bankAccountId) {
      if (doc.kind === 'expense')
        return { postings: (await payExpenseIn(trx, p, doc.id, { paidAt, bankAccountId })).postings };
      const postings = await markInvoicePaid(trx, invoices, p, doc.id, { paidAt, bankAccountId }, todayIso());
      return { postings, afterCommit: async () => invoices.afterCommit?.(p, doc.id, 'paid') };
    },
  };

  // Background jobs (G12: each claims its work with an advisory lock and SKIP LOCKED); they start
  // when the app is ready and are awaited when it closes.
  const scheduler = createScheduler(app);
  scheduler.add(overdueInvoicesJob(db, app.log));
  scheduler.add(ledgerFoldJob(db, app.log, config.ledgerFoldIntervalMs));
  const feed = feedSettings(config.exchangeRateFeed);
  if (feed.enabled) scheduler.add(exchangeRateFeedJob(db.system, app.log, feed));
  const nbs = nbsSettings(config.exchangeRateFeed);
  if (nbs) scheduler.add(nbsFeedJob(db.system, app.log, nbs));
  else if (feed.enabled) app.log.info('NBS rate feed off: NBS_USERNAME, NBS_PASSWORD and NBS_LICENCE_ID are not set');
  scheduler.add(sefDeliveryJob(sef));
  scheduler.add(sefSyncJob(sef));
  scheduler.add(fiscalDeliveryJob(sef));
  scheduler.add(intermediaryIntakeJob(sef));
  scheduler.add(intermediaryDeliveryJob(sef));
  scheduler.add(intermediaryStatusJob(sef));

  // Routes: one place shows the whole map.
  await app.register(healthRoutes(ctx));
  // Only the auth routes read or set a cookie (the refresh token): the cookie plugin's hooks run
  // for them, not for every request of the API.
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(authRoutes(ctx), { prefix: '/api/v1/auth' });
  });
  await app.register(organizationRoutes(), { prefix: '/api/v1/organization' });
  await app.register(usersRoutes(ctx), { prefix: '/api/v1/users' });
  await app.register(auditRoutes(), { prefix: '/api/v1/audit-log' });
  await app.register(currenciesRoutes(), { prefix: '/api/v1/currencies' });
  await app.register(exchangeRatesRoutes(), { prefix: '/api/v1/exchange-rates' });
  await app.register(contactsRoutes({ deleteBlockers: contactDeleteBlockers }), { prefix: '/api/v1/contacts' });
  await app.register(accountsRoutes({ deleteBlockers: accountDeleteBlockers }), { prefix: '/api/v1/accounts' });
  await app.register(transactionsRoutes(), { prefix: '/api/v1/transactions' });
  await app.register(taxRatesRoutes(), { prefix: '/api/v1/settings/tax-rates' });
  await app.register(invoicesRoutes(invoices), { prefix: '/api/v1/invoices' });
  await app.register(einvoiceRoutes(invoices), { prefix: '/api/v1/invoices' });
  await app.register(sefInvoiceRoutes(sef), { prefix: '/api/v1/invoices' });
  await app.register(sefSettingsRoutes(sef), { prefix: '/api/v1/organization/sef' });
  await app.register(purchaseInvoicesRoutes(sef), { prefix: '/api/v1/purchase-invoices' });
  await app.register(sefRoutes(sef), { prefix: '/api/v1/sef' });
  await app.register(fiscalizationSettingsRoutes(sef), { prefix: '/api/v1/organization/fiscalization' });
  await app.register(fiscalizationInvoiceRoutes(sef), { prefix: '/api/v1/invoices' });
  await app.register(intermediaryRoutes(sef), { prefix: '/api/v1/organization/intermediary' });
  await app.register(intermediaryInvoiceRoutes(sef), { prefix: '/api/v1/invoices' });
  await app.register(publicInvoicesRoutes(invoices), { prefix: '/api/v1/public/invoices' });
  await app.register(alertsRoutes(), { prefix: '/api/v1/alerts' });
  await app.register(expensesRoutes(receipts), { prefix: '/api/v1/expenses' });
  await app.register(bankingRoutes(documentPayments), { prefix: '/api/v1/bank-accounts' });
  await app.register(reportsRoutes(), { prefix: '/api/v1/reports' });
  // The web app (W1, W3) at / and /assets/*; every other unknown path keeps the JSON 404.
  await webAppRoutes(app, { root: config.webDir });

  return app;
}
