import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { registerPublic } from './routes.js';

type Document = NonNullable<FastifyDynamicSwaggerOptions['openapi']>;

/** What the reference page says about an operation (issue 25 item 6). */
export interface OperationDoc {
  summary: string;
  description: string;
  /** A request body the operation accepts, shown on /docs. */
  requestExample?: unknown;
  /** What the operation answers (its first 2xx status), shown on /docs. */
  responseExample?: unknown;
  /** A multipart-only route (no JSON body schema): the name of its file field, documented as binary. */
  multipartFile?: string;
}

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  securitySchemes: NonNullable<Document['components']>['securitySchemes'];
  /** The summary and description of an operation (`GET`, the route's URL) the route's own schema lacks. */
  describe?(method: string, url: string): OperationDoc | undefined;
  /**
   * The operation's security requirement, derived from the route's own auth config (one place
   * instead of every route schema); a schema that states `security` keeps its own.
   */
  security?(route: RouteOptions): Array<Record<string, string[]>> | undefined;
}

type RouteSchema = Record<string, unknown> & {
  summary?: string;
  description?: string;
  body?: object;
  security?: unknown;
  response?: Record<string, unknown>;
};

/** The operation's success status as the route's schema lists it (the lowest 2xx), if any. */
export function successStatus(response: Record<string, unknown> | undefined): string | undefined {
  return Object.keys(response ?? {})
    .filter((code) => /^2(\d\d|XX)$/.test(code))
    .sort()[0];
}

/** The route's schema with the operation's texts and example, as a copy (the route validates with its own). */
function described(schema: RouteSchema | undefined, doc: OperationDoc | undefined): RouteSchema | undefined {
  if (!schema || !doc) return schema;
  const out: RouteSchema = { ...schema, summary: schema.summary ?? doc.summary };
  out.description = schema.description ? `${doc.description} ${schema.description}` : doc.description;
  if (schema.body && doc.requestExample !== undefined) out.body = { ...schema.body, examples: [doc.requestExample] };
  const status = successStatus(schema.response);
  if (status && doc.responseExample !== undefined) {
    const answer = schema.response?.[status] as { content?: Record<string, object> };
    // An answer in several media types (`content`, e.g. JSON, CSV and PDF) shows it on the JSON one.
    const json = answer.content?.['application/json'];
    out.response = {
      ...schema.response,
      [status]: json
        ? { ...answer, content: { ...answer.content, 'application/json': { ...json, example: doc.responseExample } } }
        : { ...answer, examples: [doc.responseExample] },
    };
  }
  if (!schema.body && doc.multipartFile) {
    out.body = {
      type: 'object',
      required: [doc.multipartFile],
      properties: { [doc.multipartFile]: { type: 'string', format: 'binary' } },
    };
  }
  return out;
}

/**
 * The public routes registerOpenApi adds (the reference page, its assets, the document), for the
 * route-security suites' lists of what may be called without a session.
 */
export const DOCS_ROUTES = [
  'GET /docs',
  'GET /docs/json',
  'GET /docs/static/*',
  'GET /docs/static/index.html',
  'GET /docs/static/swagger-initializer.js',
  'GET /docs/yaml',
  'GET /openapi.json',
] as const;

/**
 * OpenAPI 3.1 generated from the route schemas (G9): the document at /openapi.json and a
 * reference page at /docs, both public. Register before the routes so every route is described.
 */
export async function registerOpenApi(app: FastifyInstance, opts: OpenApiOptions): Promise<void> {
  const openapi: Document = {
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version, description: opts.description },
    components: { securitySchemes: opts.securitySchemes },
  };
  await app.register(swagger, {
    openapi,
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const out = described(schema as RouteSchema, opts.describe?.(method, url));
      const security = out && out.security === undefined ? opts.security?.(route) : undefined;
      return { schema: (security ? { ...out, security } : out) as never, url };
    },
  });
  await registerPublic(app, swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
