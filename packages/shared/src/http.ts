import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import closeWithGrace from 'close-with-grace';
import type { FastifySchemaCompiler } from 'fastify';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { HelmetOptions } from 'helmet';
import secureJson from 'secure-json-parse';
import { type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { registerBodyDrain } from './body-limits.js';
import type { TrustProxy } from './config.js';
import { assertSafeText } from './input-hygiene.js';
import { loggerOptions } from './log-redaction.js';
import { securityHeaderList } from './security-headers.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed incoming X-Request-Id (G10); otherwise make one. */
export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export const MAX_JSON_DEPTH = 32;

/** The body each request's G14 check saw (see the preHandler hook in createHttp). */
const checkedBodies = new WeakMap<object, unknown>();

function depthOf(value: unknown): number {
  // Iterative so a hostile body cannot overflow the stack while being measured.
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** No body was declared, or an empty JSON one (a multipart body on a JSON route stays refused). */
function noOrJsonBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return type === undefined || /^application\/json\b/i.test(type);
}

function isObjectSchema(schema: unknown): boolean {
  return (schema as { type?: unknown } | undefined)?.type === 'object';
}

/** A schema whose every string input it converts to itself (strings, string literals, their unions). */
function textOnly(schema: TSchema): boolean {
  if (Type.IsString(schema)) return true;
  if (Type.IsLiteral(schema)) return typeof schema.const === 'string';
  if (Type.IsUnion(schema)) return schema.anyOf.every(textOnly);
  return false;
}

/**
 * @fastify/type-provider-typebox's TypeBoxValidatorCompiler (compiled checks; bodies never
 * coerced, G14; query, params and headers converted with Value.Convert before the check), except
 * that a part whose properties are all text skips Value.Convert: it converts a string (or the
 * array a repeated query key makes) to itself for those schemas, and walking the schema to find
 * that out cost every `/:id` request 10-15 µs.
 */
const compileValidator: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const additional = (schema as { additionalProperties?: unknown }).additionalProperties;
  const convert =
    httpPart === 'body' ||
    (Type.IsObject(schema) &&
      (additional === undefined || typeof additional === 'boolean') &&
      Object.values(schema.properties).every(textOnly))
      ? null
      : (value: unknown) => Value.Convert(schema, value);
  return (value) => {
    const converted = convert ? convert(value) : value;
    if (check.Check(converted)) return { value: converted };
    return { error: check.Errors(converted) as never };
  };
};

/**
 * Validators and response serializers are compiled on a route's first use, not at start-up. Each
 * is generated code (TypeBox's compiled checks, fast-json-stringify's functions): compiled for
 * every route, part and status code at start-up they held about 4 MB of V8's old space (30.9 ->
 * 26.8 MB at start, RSS 111.6 -> 105 MB) in a process that, serving a few routes, never runs most
 * of them (issue 10's import peak RSS). The first request of a route pays its compilation once. A
 * schema that cannot compile still fails every request of its route, which the hostile-input
 * suites, walking every route, would show.
 */
function lazily<F extends (...args: never[]) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  return ((...args: Parameters<F>) => {
    compiled ??= compile();
    return compiled(...args);
  }) as F;
}

const validatorCompiler: FastifySchemaCompiler<TSchema> = (route) => lazily(() => compileValidator(route));

const defaultSerializerFactory = SerializerSelector();
const buildSerializer: typeof defaultSerializerFactory = (externalSchemas, options) => {
  const compile = defaultSerializerFactory(externalSchemas, options);
  return (route) => lazily(() => compile(route));
};

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 answers a bare hop count by trusting nothing (it cannot
 * check the immediate peer), so a hop count is given as the function Express uses: the socket
 * address and the next `hops - 1` X-Forwarded-For entries from the right are proxies, the one after
 * them is the client. Only sound when the service cannot be reached but through those proxies
 * (docs/configuration.md); addresses or CIDR ranges check the peer and are preferred.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export class BodyTooDeepError extends Error {
  statusCode = 400;
  code = 'FST_ERR_CTP_INVALID_JSON_BODY';
}

export interface HttpOptions {
  logLevel: string;
  trustProxy: TrustProxy;
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
  /** Weak settings production was told to accept (CommonConfig.acceptedWeaknesses): each logged as a warning. */
  acceptedWeaknesses?: readonly string[];
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Path prefixes whose next segment is a secret (a capability token): masked in the logs. */
  secretPaths?: readonly string[];
  /** Helmet's options for the security headers every response carries. */
  securityHeaders?: HelmetOptions;
}

/**
 * The Fastify instance both services build on: JSON logs with the request id, request ids
 * echoed, TypeBox validation without body coercion (G14: "Infinity" never becomes a number),
 * prototype-poisoning-safe JSON with a nesting limit, and a 1 MiB body limit.
 * Strings PostgreSQL cannot hold are refused before validation (G14), and the router's own
 * errors (undecodable URL, over-long path parameter) go through the service's error handler
 * like every other error (G15), so each service answers them in its envelope.
 */
export function createHttp(opts: HttpOptions): FastifyInstance {
  const bodyLimit = opts.bodyLimit ?? 1024 * 1024;
  const app: FastifyInstance = Fastify({
    logger: opts.logger ?? { ...loggerOptions(opts.logLevel, opts.secretPaths), stream: opts.logStream },
    trustProxy: fastifyTrustProxy(opts.trustProxy),
    bodyLimit,
    genReqId: requestIdFrom,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: opts.logLevel === 'silent',
    }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: { buildSerializer } },
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id);
      return app.errorHandler(err, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;
  for (const weakness of opts.acceptedWeaknesses ?? [])
    app.log.warn({ weakness }, 'weak setting accepted in production by its ALLOW_ variable');
  app.setValidatorCompiler(validatorCompiler);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch (err) {
      const e = err as Error & { statusCode?: number; code?: string };
      e.statusCode = 400;
      e.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      return done(e, undefined);
    }
    if (depthOf(parsed) > MAX_JSON_DEPTH)
      return done(new BodyTooDeepError('JSON body is nested too deeply'), undefined);
    done(null, parsed);
  });
  // The hooks every request runs take callbacks, not promises: an async hook costs a promise and
  // a microtask per request even when it has nothing to wait for.
  // The request id and the security headers are set before anything can fail, so every answer
  // (errors and not-found included) carries them; Fastify keeps reply headers on its error path.
  const securityHeaders = securityHeaderList(opts.securityHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    for (let i = 0; i < securityHeaders.length; i++) reply.header(securityHeaders[i][0], securityHeaders[i][1]);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    // No body where the route takes an object is an empty object (issue 25 item 6): an action with
    // nothing to say (POST /invoices/:id/send) is accepted, and a missing field is named as missing.
    if (request.body === undefined && isObjectSchema(request.routeOptions.schema?.body) && noOrJsonBody(request))
      request.body = {};
    try {
      assertSafeText(request);
    } catch (err) {
      return done(err as Error);
    }
    if (request.body !== undefined) checkedBodies.set(request, request.body);
    done();
  });
  // A body refused while it still arrives is read to its end (up to a cap) before the answer, so
  // the client can read the 413 (issue 25 item 2).
  registerBodyDrain(app, bodyLimit);
  // A route's own preValidation hook may replace the body (a multipart form turned into fields):
  // that new body is checked before the handler too.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.body === checkedBodies.get(request)) return done();
    try {
      assertSafeText({ body: request.body });
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  return app;
}

/**
 * Sends JSON text that already is the route's response in its schema's shape (built by PostgreSQL
 * for long lists and reports): Fastify sends a string with a JSON content type as it is, so the
 * rows are neither parsed nor serialised again in Node. The route's tests compare the text with
 * what the schema describes; the cast only tells TypeScript so.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json as never);
}

/**
 * Listen, and stop gracefully on SIGTERM/SIGINT (G13): stop accepting, let in-flight requests
 * finish for up to 10 s, close the database, exit 0.
 */
export async function listenGracefully(
  app: FastifyInstance,
  opts: { port: number; host: string; onClose: () => Promise<void> },
): Promise<void> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await opts.onClose();
  });
  await app.listen({ port: opts.port, host: opts.host });
}
