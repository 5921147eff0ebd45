import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from '@app/shared/db/unavailable';
import { UNSAFE_TEXT_KEYWORD } from '@app/shared/input-hygiene';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** A domain error carrying its R2 code; the handler below turns it into the response. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError(400, 'bad_request', message, details);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Forbidden') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const validationError = (message: string, details?: ErrorDetail[]) =>
  new AppError(422, 'validation_error', message, details);

// Missing or wrongly typed fields and values outside a fixed list are 400; values that break a
// rule (range, length, pattern, format) are 422 (R2). A string PostgreSQL cannot hold (NUL, a
// lone surrogate) is malformed input: 400 (G14).
const SHAPE_KEYWORDS = new Set(['type', 'required', 'enum', 'const', 'anyOf', 'oneOf', 'additionalProperties', 'union', UNSAFE_TEXT_KEYWORD]);

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldOf(issue: ValidationIssue): string {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  if (issue.keyword === 'required' && missing) {
    const name = Array.isArray(missing) ? missing.join(',') : String(missing);
    return path ? `${path}.${name}` : name;
  }
  return path || '(root)';
}

function fromValidation(issues: ValidationIssue[], context: string | undefined): AppError {
  const details = issues.map((i) => ({ field: fieldOf(i), message: i.message ?? 'is invalid' }));
  const shape = context !== 'body' || issues.some((i) => SHAPE_KEYWORDS.has(i.keyword ?? ''));
  return shape
    ? badRequest('The request is missing fields or has fields of the wrong type', details)
    : validationError('Some fields are invalid', details);
}

function toAppError(err: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) {
    // G15: an outage is retried by the client, not reported as an unhandled error.
    return new AppError(503, 'service_unavailable', 'The service is temporarily unavailable, retry shortly', undefined, {
      'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS),
    });
  }
  if (err.validation) return fromValidation(err.validation, err.validationContext);
  const status = err.statusCode ?? 500;
  if (status === 429) return new AppError(429, 'rate_limited', 'Too many requests, try again later');
  if (status === 413) return new AppError(413, 'payload_too_large', 'The request body is too large');
  if (status === 415) return new AppError(415, 'unsupported_media_type', 'Send the body as application/json');
  // G15: a path parameter longer than the router accepts names nothing that exists.
  if (status === 404 || err.code === 'FST_ERR_MAX_PARAM_LENGTH') return notFound();
  if (err.code === 'FST_ERR_BAD_URL') return badRequest('The URL is not correctly percent-encoded', [{ field: 'path', message: 'is not a valid URL' }]);
  if (status >= 400 && status < 500) return badRequest(err.code?.startsWith('FST_ERR_CTP') ? 'Malformed JSON body' : err.message);
  return new AppError(500, 'internal_error', 'Something went wrong on our side');
}

export function errorBody(e: AppError) {
  return e.details?.length ? { error: e.code, message: e.message, details: e.details } : { error: e.code, message: e.message };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const e = toAppError(err);
    if (e.statusCode >= 500) request.log.error({ err }, 'request failed');
    if (e.headers) reply.headers(e.headers);
    return reply.status(e.statusCode).send(errorBody(e));
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody(notFound('No such route'))));
}
