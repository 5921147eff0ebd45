import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { registerPublic } from './routes.js';

type Document = NonNullable<FastifyDynamicSwaggerOptions['openapi']>;

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  securitySchemes: NonNullable<Document['components']>['securitySchemes'];
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
  await app.register(swagger, { openapi });
  await registerPublic(app, swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
