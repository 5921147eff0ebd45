import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
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
    if (e.validation) {
      const context = e.validationContext;
      if (context === 'params') return send(reply, request, 404, 'SVC-9002');
      const details = validationDetails(e.validation as ValidationIssue[]);
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
    if (e.statusCode === 429) {
      return send(reply, request, 429, 'SVC-9005');
    }
    if (e.code?.startsWith('FST_ERR_CTP_') || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.statusCode === 400 || e.statusCode === 415) {
      // Malformed JSON, a body that is too large or too deep, or an unsupported content type.
      const reason = e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'body is too large' : e.message;
      return send(reply, request, 422, 'SVC-9003', { body: [reason] });
    }
    const isDb = typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test(String(e.code));
    request.log.error({ err }, 'unhandled error');
    return send(reply, request, 500, isDb ? 'SVC-9006' : 'SVC-9004');
  });
});
