import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { clientInfo } from '../../lib/client-info.js';
import type { Surface } from '../../lib/tokens.js';
import { authOf, scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import { clearWebCookie } from '../auth/auth.routes.js';
import type { SessionService } from '../auth/sessions.service.js';
import type { OpenBankingDeps } from '../open-banking/open-banking.service.js';
import { eraseAccount, exportData } from './data-rights.service.js';
import {
  ComplaintBody,
  ComplaintCreatedResponse,
  ComplaintIdParams,
  ComplaintListQuery,
  ComplaintListResponse,
  ComplaintResponse,
  ConsentBody,
  ConsentHistoryQuery,
  ConsentHistoryResponse,
  ConsentListResponse,
  ConsentResponse,
  DataExportResponse,
  ErasureResponse,
} from './gdpr.schemas.js';
import {
  createComplaint,
  getComplaint,
  listComplaints,
  listConsentHistory,
  listConsents,
  recordConsent,
} from './gdpr.service.js';

interface GdprRouteDeps {
  config: Readonly<Config>;
  openBanking: OpenBankingDeps;
  sessions: SessionService;
}

export function gdprRoutes(surface: Surface, deps: GdprRouteDeps) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['gdpr'];

    app.get('/consents', { schema: { tags, response: { 200: ConsentListResponse, ...errors(401) } } }, async (req) => ({
      data: await listConsents(scopeOf(req)),
    }));

    app.get(
      '/consents/history',
      {
        schema: {
          tags,
          querystring: ConsentHistoryQuery,
          response: { 200: ConsentHistoryResponse, ...errors(400, 401) },
        },
      },
      async (req) => listConsentHistory(scopeOf(req), req.query),
    );

    app.post(
      '/consents',
      {
        schema: {
          tags,
          summary: 'Grant or withdraw a consent: 201 when the record is created, 200 when it is updated',
          body: ConsentBody,
          response: { 200: ConsentResponse, 201: ConsentResponse, ...errors(400, 401, 403) },
        },
      },
      async (req, reply) => {
        const { created, consent } = await recordConsent(scopeOf(req), {
          type: req.body.consentType,
          granted: req.body.granted,
          ip: clientInfo(req).ip,
        });
        return reply.status(created ? 201 : 200).send({ data: consent });
      },
    );

    app.get(
      '/complaints',
      {
        schema: {
          tags,
          querystring: ComplaintListQuery,
          response: { 200: ComplaintListResponse, ...errors(400, 401) },
        },
      },
      async (req) => listComplaints(scopeOf(req), req.query),
    );

    app.get(
      '/complaints/:id',
      { schema: { tags, params: ComplaintIdParams, response: { 200: ComplaintResponse, ...errors(401, 404) } } },
      async (req) => ({ data: await getComplaint(scopeOf(req), req.params.id) }),
    );

    app.post(
      '/complaints',
      {
        schema: {
          tags,
          body: ComplaintBody,
          response: { 201: ComplaintCreatedResponse, ...errors(400, 401, 403, 422) },
        },
      },
      async (req, reply) => reply.status(201).send(await createComplaint(scopeOf(req), req.body)),
    );

    app.get(
      '/user/data-export',
      {
        schema: {
          tags,
          summary: 'Every personal record of the user (GDPR access)',
          response: { 200: DataExportResponse, ...errors(401) },
        },
      },
      async (req, reply) => {
        // Personal data: no browser or proxy cache keeps a copy (issue 33 item 12).
        reply.header('cache-control', 'no-store');
        return exportData(scopeOf(req), clientInfo(req).ip);
      },
    );

    app.get(
      '/user/data-export/download',
      {
        schema: {
          tags,
          summary: 'The same export as a JSON file (Content-Disposition: attachment)',
          response: { 200: DataExportResponse, ...errors(401) },
        },
      },
      async (req, reply) => {
        const userId = authOf(req).userId;
        const body = await exportData(scopeOf(req), clientInfo(req).ip);
        const day = body.exportedAt.slice(0, 10);
        reply.header('content-disposition', `attachment; filename="data-export-${userId}-${day}.json"`);
        reply.header('cache-control', 'no-store');
        return body;
      },
    );

    app.delete(
      '/user/account',
      {
        schema: {
          tags,
          summary: 'Erase the account: soft delete, every session and bank consent revoked; records kept 5 years (AML)',
          response: { 200: ErasureResponse, ...errors(401, 403) },
          description:
            'Needs an eID sign-in from the last REAUTH_MAX_AGE (default 10 minutes): older sessions answer 403 reauthentication_required.',
        },
      },
      async (req, reply) => {
        // Step-up: a stolen or long-lived token alone cannot erase the account.
        deps.sessions.requireRecentSignIn(authOf(req));
        const result = await eraseAccount(deps, scopeOf(req), clientInfo(req).ip);
        if (surface === 'web') clearWebCookie(reply, deps.config);
        return result;
      },
    );
  };
}
