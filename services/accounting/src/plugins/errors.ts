import { type Fault, issueFields, registerErrorEnvelope, type ValidationIssue } from '@app/shared/errors';
import { UNSAFE_TEXT_KEYWORD } from '@app/shared/input-hygiene';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ErrorCode, type Language, languageFromHeader, messageFor, statusFor } from '../lib/catalog.js';
import { localizeDetails } from '../lib/detail-messages.js';
import { AppError, addDetail, type ErrorDetails } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
  interface FastifyContextConfig {
    /** Maps a body field to the catalog code its validation failure answers with. */
    fieldCodes?: Record<string, ErrorCode>;
  }
}

/** An enum's refusal lists what it takes (issue 25 item 6: an unknown action names the allowed ones). */
function allowedValues(issue: ValidationIssue): string | null {
  const allowed = issue.params?.allowedValues;
  return issue.keyword === 'enum' && Array.isArray(allowed) ? `must be one of: ${allowed.join(', ')}` : null;
}

/** A1 details: field path (`items[0].unitPrice`) -> messages; the whole body under `body`. */
function validationDetails(issues: ValidationIssue[]): ErrorDetails {
  const details: ErrorDetails = {};
  for (const issue of issues) {
    const message =
      issue.keyword === 'required' ? 'is required' : (allowedValues(issue) ?? issue.message ?? 'is invalid');
    for (const field of issueFields(issue)) addDetail(details, field || 'body', message);
  }
  return details;
}

const PAGINATION_FIELDS = new Set(['page', 'perPage', 'sort', 'order']);

/**
 * Validation failures: 422 SVC-9003 (or a field's own code), bad pagination 400 SVC-9008,
 * malformed ids 404 SVC-9002.
 */
function fromValidation(issues: ValidationIssue[], context: string | undefined, request: FastifyRequest): AppError {
  const details = validationDetails(issues);
  // G14: a string PostgreSQL cannot hold is malformed input wherever it is, path included.
  if (issues.some((i) => i.keyword === UNSAFE_TEXT_KEYWORD)) return new AppError('SVC-9003', details);
  if (context === 'params') return new AppError('SVC-9002');
  if (context === 'querystring' && Object.keys(details).some((k) => PAGINATION_FIELDS.has(k))) {
    return new AppError('SVC-9008', details);
  }
  const fieldCodes = request.routeOptions.config?.fieldCodes;
  if (fieldCodes) {
    // A field's own code applies to a value it refuses, not to a missing field.
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(details)) {
      const code = fieldCodes[key];
      if (code && body[key] !== undefined) return new AppError(code, details);
    }
  }
  return new AppError('SVC-9003', details);
}

function fromFault(fault: Fault, request: FastifyRequest): AppError {
  switch (fault.kind) {
    case 'unavailable':
      return new AppError('SVC-9006');
    case 'validation':
      return fromValidation(fault.issues, fault.context, request);
    case 'rate_limited':
      return new AppError('SVC-9005');
    // A1: a path parameter longer than any id is an id that is not a UUID.
    case 'not_found':
      return new AppError('SVC-9002');
    case 'bad_url':
      return new AppError('SVC-9003', { path: ['is not a valid URL'] });
    // A body over the limit: 413 SVC-9009 (issue 25 item 2). Malformed JSON, a body too deep, an
    // unsupported content type (422 rather than 415: the catalog has no code for it, see docs),
    // bad multipart: malformed input.
    case 'rejected':
      if (fault.status === 413) return new AppError('SVC-9009', { body: ['must be at most 1 MiB'] });
      return new AppError('SVC-9003', { body: [fault.message] });
    case 'internal':
      return new AppError(fault.database ? 'SVC-9006' : 'SVC-9004');
  }
}

/**
 * The accounting envelope (A1) on the shared error handler: the catalog gives each code its
 * status and its message in the request's language; 5xx carry the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
    done();
  });
  registerErrorEnvelope<AppError>(app, {
    statusOf: statusFor,
    fromFault,
    body: (err, status, request) => ({
      error: {
        code: err.code,
        message: messageFor(err.code, request.lang ?? 'en'),
        ...(err.details && Object.keys(err.details).length
          ? { details: localizeDetails(err.details, request.lang ?? 'en') }
          : {}),
        ...(status >= 500 ? { requestId: request.id } : {}),
      },
    }),
  });
}
