import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { Surface } from '../../lib/tokens.js';
import { authOf, scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import type { SessionService } from '../auth/sessions.service.js';
import {
  AccountIdParams,
  BankAccountListResponse,
  BankAccountResponse,
  BankCallbackQuery,
  BankListResponse,
  BanksQuery,
  ConsentIdParams,
  ConsentListResponse,
  ConsentResponse,
  CreateConsentBody,
  CreateConsentResponse,
  SandboxAuthorizeQuery,
} from './open-banking.schemas.js';
import {
  completeConsent,
  createConsent,
  linkedBefore,
  listAccounts,
  listBanks,
  listConsents,
  type OpenBankingDeps,
  refreshBalance,
  renewConsent,
  revokeConsent,
  setPrimary,
} from './open-banking.service.js';

interface OpenBankingRouteDeps {
  openBanking: OpenBankingDeps;
  /** Step-up (requireRecentSignIn): a consent lasts at most 90 days, then the user signs in with eID again. */
  sessions: Pick<SessionService, 'requireRecentSignIn'>;
  /** The sandbox bank's consent page (OPEN_BANKING_PROVIDER=sandbox only). */
  sandbox: { authorize(externalConsentId: string, approve: boolean): Promise<string | null> } | null;
}

export function openBankingRoutes(surface: Surface, deps: OpenBankingRouteDeps) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['open banking'];
    const ob = deps.openBanking;

    app.post(
      '/open-banking/consents',
      {
        schema: {
          tags,
          body: CreateConsentBody,
          response: { 201: CreateConsentResponse, ...errors(400, 401, 403, 422, 502) },
        },
        // The body is optional (every field has a default).
        preValidation: async (req) => {
          req.body ??= {};
        },
      },
      async (req, reply) => {
        const user = scopeOf(req);
        // Linking again (after an expiry or a revocation) is a re-authorization: a recent eID sign-in.
        if (await linkedBefore(user)) deps.sessions.requireRecentSignIn(authOf(req));
        const data = await createConsent(ob, user, req.body.scope ?? 'AISP+PISP', surface, { bank: req.body.bank });
        return reply.status(201).send({ data });
      },
    );

    app.get(
      '/open-banking/banks',
      {
        schema: {
          tags,
          summary: 'The banks a consent can be given at (the bank chooser), by name',
          querystring: BanksQuery,
          response: { 200: BankListResponse, ...errors(401, 502) },
        },
      },
      async (req) => ({ data: await listBanks(ob, req.query.country ?? 'NO') }),
    );

    app.get(
      '/open-banking/consents',
      { schema: { tags, response: { 200: ConsentListResponse, ...errors(401) } } },
      async (req) => ({
        data: await listConsents(scopeOf(req), ob.config.openBanking.renewalWindowMs),
      }),
    );

    app.post(
      '/open-banking/consents/:id/renew',
      {
        schema: {
          tags,
          params: ConsentIdParams,
          response: { 201: CreateConsentResponse, ...errors(401, 403, 404, 409, 502) },
        },
      },
      async (req, reply) => {
        // Spec: a consent lasts at most 90 days, then the user re-authenticates with eID (REAUTH_MAX_AGE).
        deps.sessions.requireRecentSignIn(authOf(req));
        const data = await renewConsent(ob, scopeOf(req), req.params.id, surface);
        return reply.status(201).send({ data });
      },
    );

    app.delete(
      '/open-banking/consents/:id',
      { schema: { tags, params: ConsentIdParams, response: { 200: ConsentResponse, ...errors(401, 403, 404) } } },
      async (req) => ({ data: await revokeConsent(ob, scopeOf(req), req.params.id) }),
    );

    app.get(
      '/bank-accounts',
      { schema: { tags, response: { 200: BankAccountListResponse, ...errors(401) } } },
      async (req) => {
        const { accounts, totalBalance } = await listAccounts(scopeOf(req), ob.config.openBanking.renewalWindowMs);
        return { data: accounts, totalBalance };
      },
    );

    app.post(
      '/bank-accounts/:id/primary',
      { schema: { tags, params: AccountIdParams, response: { 200: BankAccountResponse, ...errors(401, 403, 404) } } },
      async (req) => ({ data: await setPrimary(scopeOf(req), req.params.id) }),
    );

    app.post(
      '/bank-accounts/:id/refresh',
      {
        schema: {
          tags,
          summary:
            'Read the balance from the bank now (user-initiated: not counted against the 4 unattended reads a day)',
          params: AccountIdParams,
          response: { 200: BankAccountResponse, ...errors(401, 403, 404) },
        },
      },
      async (req) => {
        const { account, warning } = await refreshBalance(ob, scopeOf(req), req.params.id);
        return warning ? { data: account, warning } : { data: account };
      },
    );

    if (surface === 'web') registerBankRedirects(app, deps);
  };
}

/** Browser redirects from the bank: public, authenticated by the consent's one-time state. */
function registerBankRedirects(scope: FastifyInstance, deps: OpenBankingRouteDeps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['open banking'];
  app.get(
    '/open-banking/callback',
    {
      config: { public: true },
      schema: {
        tags,
        querystring: BankCallbackQuery,
        response: { 302: { description: 'to /bank-accounts or the app' } },
      },
    },
    async (req, reply) => reply.redirect(await completeConsent(deps.openBanking, req.query.consentId, req.query), 302),
  );

  const sandbox = deps.sandbox;
  if (!sandbox) return;
  app.get(
    '/open-banking/sandbox/authorize',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sandbox bank consent page (development)',
        querystring: SandboxAuthorizeQuery,
        response: errors(404),
      },
    },
    async (req, reply) => {
      const back = await sandbox.authorize(req.query.consent, req.query.decision !== 'deny');
      if (!back) throw notFound('Unknown or already answered consent request');
      return reply.redirect(back, 302);
    },
  );
}
