import { CodedError, type Fault, issueFields, registerErrorEnvelope, type ValidationIssue } from '@app/shared/errors';
import { UNSAFE_TEXT_KEYWORD } from '@app/shared/input-hygiene';
import type { FastifyInstance } from 'fastify';

/**
 * The R2 catalog (spec Errors): each code's HTTP status, decided here and nowhere else. Messages
 * and detail messages are English whatever the request's language: clients show their own text by
 * code and field (docs/decisions.md, "Remittance error texts stay English").
 */
export const CATALOG = {
  bad_request: 400,
  no_bank_account: 400,
  unauthorized: 401,
  insufficient_balance: 402,
  forbidden: 403,
  kyc_required: 403,
  age_restricted: 403,
  /** Step-up (issue 33 item 11): the action needs an eID sign-in from the last REAUTH_MAX_AGE. */
  reauthentication_required: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  idempotency_mismatch: 422,
  rate_limited: 429,
  internal_error: 500,
  eid_provider_error: 502,
  bank_unavailable: 502,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof CATALOG;

export interface ErrorDetail {
  field: string;
  message: string;
}

/** A domain error carrying its R2 code; the catalog above gives its status. */
export class AppError extends CodedError<ErrorCode, ErrorDetail[]> {}

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError('bad_request', message, details);
export const unauthorized = (message = 'Authentication required') => new AppError('unauthorized', message);
export const forbidden = (message = 'Forbidden') => new AppError('forbidden', message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const validationError = (message: string, details?: ErrorDetail[]) =>
  new AppError('validation_error', message, details);

// Missing or wrongly typed fields and values outside a fixed list are 400; values that break a
// rule (range, length, pattern, format) are 422 (R2). A string PostgreSQL cannot hold (NUL, a
// lone surrogate) is malformed input: 400 (G14).
const SHAPE_KEYWORDS = new Set([
  'type',
  'required',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'additionalProperties',
  'union',
  UNSAFE_TEXT_KEYWORD,
]);

function fromValidation(issues: ValidationIssue[], context: string | undefined): AppError {
  const details = issues.flatMap((i) =>
    issueFields(i).map((field) => ({ field: field || '(root)', message: i.message ?? 'is invalid' })),
  );
  const shape = context !== 'body' || issues.some((i) => SHAPE_KEYWORDS.has(i.keyword ?? ''));
  return shape
    ? badRequest('The request is missing fields or has fields of the wrong type', details)
    : validationError('Some fields are invalid', details);
}

function fromFault(fault: Fault): AppError {
  switch (fault.kind) {
    case 'unavailable':
      return new AppError('service_unavailable', 'The service is temporarily unavailable, retry shortly');
    case 'validation':
      return fromValidation(fault.issues, fault.context);
    case 'rate_limited':
      return new AppError('rate_limited', 'Too many requests, try again later');
    case 'not_found':
      return fault.route ? notFound('No such route') : notFound();
    case 'bad_url':
      return badRequest('The URL is not correctly percent-encoded', [{ field: 'path', message: 'is not a valid URL' }]);
    case 'rejected':
      if (fault.status === 413) return new AppError('payload_too_large', 'The request body is too large');
      if (fault.status === 415) return new AppError('unsupported_media_type', 'Send the body as application/json');
      return badRequest(fault.code?.startsWith('FST_ERR_CTP') ? 'Malformed JSON body' : fault.message);
    case 'internal':
      return new AppError('internal_error', 'Something went wrong on our side');
  }
}

/** The R2 body: `{error, message, details?}`. */
function errorBody(e: AppError) {
  return e.details?.length
    ? { error: e.code, message: e.message, details: e.details }
    : { error: e.code, message: e.message };
}

export function registerErrorHandling(app: FastifyInstance): void {
  registerErrorEnvelope<AppError>(app, { statusOf: (code) => CATALOG[code], fromFault, body: errorBody });
}
