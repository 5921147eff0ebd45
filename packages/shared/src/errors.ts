import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from './db/unavailable.js';

/**
 * A domain error: a code from the service's catalog, which alone decides the HTTP status
 * (STYLE 7). Each service subclasses it with its own codes and details shape.
 */
export class CodedError<C extends string = string, D = unknown> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: D,
    readonly headers?: Record<string, string | number>,
  ) {
    super(message);
  }
}

export interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** '/items/0/unitPrice' -> 'items[0].unitPrice': the one field-path form of both services. */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** The fields a validation issue is about: each missing property of a `required` issue, else its path ('' for the whole input). */
export function issueFields(issue: ValidationIssue): string[] {
  const base = fieldPath(issue.instancePath ?? '');
  if (issue.keyword !== 'required') return [base];
  const missing = (issue.params?.requiredProperties ?? issue.params?.missingProperty ?? []) as string[] | string;
  const names = Array.isArray(missing) ? missing : [missing];
  return names.length ? names.map((name) => (base ? `${base}.${name}` : name)) : [base];
}

/** What went wrong outside the service's own code, before the service names it with one of its codes. */
export type Fault =
  /** The database is unreachable (G15): answered with Retry-After, logged as a warning. */
  | { kind: 'unavailable' }
  | { kind: 'validation'; issues: ValidationIssue[]; context: string | undefined }
  | { kind: 'rate_limited' }
  /** An unknown route (`route`), or a path parameter longer than any id (G15). */
  | { kind: 'not_found'; route: boolean }
  /** An undecodable URL (G15). */
  | { kind: 'bad_url' }
  /** Anything else Fastify or a plugin refused with a 4xx: bad JSON, body too large, content type, multipart. */
  | { kind: 'rejected'; status: number; code: string | undefined; message: string }
  | { kind: 'internal'; database: boolean };

export function faultOf(err: FastifyError): Fault {
  if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
  if (err.validation)
    return { kind: 'validation', issues: err.validation as ValidationIssue[], context: err.validationContext };
  const status = err.statusCode ?? 500;
  if (status === 429) return { kind: 'rate_limited' };
  if (status === 404 || err.code === 'FST_ERR_MAX_PARAM_LENGTH') return { kind: 'not_found', route: false };
  if (err.code === 'FST_ERR_BAD_URL') return { kind: 'bad_url' };
  if (status >= 400 && status < 500) return { kind: 'rejected', status, code: err.code, message: err.message };
  return { kind: 'internal', database: typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) };
}

/** What a service gives the shared handler: its catalog, its names for faults, its body shape. */
export interface ErrorEnvelope<E extends CodedError> {
  /** The catalog: the HTTP status of a code. */
  statusOf(code: E['code']): number;
  /** Names a fault with one of the service's codes (and details). */
  fromFault(fault: Fault, request: FastifyRequest): E;
  /** The response body of an error, given the status its code has. */
  body(err: E, status: number, request: FastifyRequest): unknown;
}

/**
 * One error envelope for a service (STYLE 7, G15): domain errors carry a catalog code and the
 * catalog gives the status; validation failures, framework refusals, outages and the unknown
 * route go through the same body; 5xx hide their internals and are logged.
 */
export function registerErrorEnvelope<E extends CodedError>(app: FastifyInstance, envelope: ErrorEnvelope<E>): void {
  const send = (reply: FastifyReply, request: FastifyRequest, err: E) => {
    const status = envelope.statusOf(err.code);
    if (err.headers) reply.headers(err.headers);
    return reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(envelope.body(err, status, request));
  };

  app.setNotFoundHandler((request, reply) =>
    send(reply, request, envelope.fromFault({ kind: 'not_found', route: true }, request)),
  );

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof CodedError) {
      if (envelope.statusOf(err.code as E['code']) >= 500) request.log.error({ err }, 'request failed');
      return send(reply, request, err as E);
    }
    const fault = faultOf(err);
    if (fault.kind === 'unavailable') {
      // G15: an outage is retried by the client, not reported as an unhandled error.
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
    } else if (fault.kind === 'internal') {
      request.log.error({ err }, 'unhandled error');
    }
    return send(reply, request, envelope.fromFault(fault, request));
  });
}
