import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from '@app/shared/db/unavailable';
import { UNSAFE_TEXT_KEYWORD } from '@app/shared/input-hygiene';
import { languageFromHeader, messageFor, type ErrorCode, type Language } from '../lib/catalog.js';
import { AppError, type ErrorDetails } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
  interface FastifyContextConfig {
    /** Maps a body field to the catalog code its validation failure answers with. */
    fieldCodes?: Record<string, ErrorCode>;
  }
}

type ValidationIssue = { instancePath?: string; keyword?: string; params?: Record<string, unknown>; message?: string };

/** '/items/0/unitPrice' -> 'items[0].unitPrice' (A1 detail keys). */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

export function validationDetails(issues: ValidationIssue[]): ErrorDetails {
  const details: ErrorDetails = {};
  const add = (key: string, msg: string) => (details[key || 'body'] ??= []).push(msg);
  for (const issue of issues) {
    const base = fieldPath(issue.instancePath ?? '');
    if (issue.keyword === 'required') {
      const missing = (issue.params?.requiredProperties ?? issue.params?.missingProperty ?? []) as string[] | string;
      for (const name of Array.isArray(missing) ? missing : [missing]) add(base ? `${base}.${name}` : name, 'is required');
    } else {
      add(base, issue.message ?? 'is invalid');
    }
  }
  return details;
}

function send(reply: FastifyReply, request: FastifyRequest, status: number, code: ErrorCode, details?: ErrorDetails) {
  const body: { error: { code: string; message: string; details?: ErrorDetails; requestId?: string } } = {
    error: { code, message: messageFor(code, request.lang ?? 'en') },
  };
  if (details && Object.keys(details).length) body.error.details = details;
  if (status >= 500) body.error.requestId = request.id;
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

const PAGINATION_FIELDS = new Set(['page', 'perPage', 'sort', 'order']);

/**
 * One error envelope for the service (A1, STYLE 7): domain errors carry a catalog code;
 * validation failures become 422 SVC-9003 (or a field's own code), bad pagination 400 SVC-9008,
 * malformed ids 404; 5xx hide their internals and carry the request id.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (request) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 404, 'SVC-9002'));

  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return send(reply, request, err.status, err.code, err.details);
    }
    const e = err as FastifyError;
    if (isDatabaseUnavailable(e)) {
      // G15: an outage is retried by the client, not reported as an unhandled error.
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
      return send(reply, request, 500, 'SVC-9006');
    }
    if (e.validation) {
      const issues = e.validation as ValidationIssue[];
      const details = validationDetails(issues);
      // G14: a string PostgreSQL cannot hold is malformed input wherever it is, path included.
      if (issues.some((i) => i.keyword === UNSAFE_TEXT_KEYWORD)) return send(reply, request, 422, 'SVC-9003', details);
      const context = e.validationContext;
      if (context === 'params') return send(reply, request, 404, 'SVC-9002');
      if (context === 'querystring' && Object.keys(details).some((k) => PAGINATION_FIELDS.has(k))) {
        return send(reply, request, 400, 'SVC-9008', details);
      }
      const fieldCodes = request.routeOptions.config?.fieldCodes;
      if (fieldCodes) {
        // A field's own code applies to a value it refuses, not to a missing field.
        const body = (request.body ?? {}) as Record<string, unknown>;
        for (const key of Object.keys(details)) {
          const code = fieldCodes[key];
          if (code && body[key] !== undefined) return send(reply, request, 422, code, details);
        }
      }
      return send(reply, request, 422, 'SVC-9003', details);
    }
    const status = e.statusCode ?? 500;
    if (status === 429) return send(reply, request, 429, 'SVC-9005');
    // G15: the router's own errors. A path parameter longer than any id is an id that is not a
    // UUID (A1: 404); an undecodable URL is malformed input.
    if (status === 404 || e.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, request, 404, 'SVC-9002');
    if (e.code === 'FST_ERR_BAD_URL') return send(reply, request, 422, 'SVC-9003', { path: ['is not a valid URL'] });
    if (status >= 400 && status < 500) {
      // Malformed JSON, a body too large or too deep, an unsupported content type (422 rather
      // than 415: the catalog has no code for it, see docs), bad multipart: malformed input.
      const reason = status === 413 ? 'body is too large' : e.message;
      return send(reply, request, 422, 'SVC-9003', { body: [reason] });
    }
    const isDb = typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test(String(e.code));
    request.log.error({ err }, 'unhandled error');
    return send(reply, request, 500, isDb ? 'SVC-9006' : 'SVC-9004');
  });
});
