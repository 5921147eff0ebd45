import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { registerPublic } from '@app/shared/routes';

/** OpenAPI 3.1 generated from the route schemas (G9): /openapi.json and a reference page at /docs. */
export const docsPlugin = fp(async (app: FastifyInstance, opts: { title: string; version: string; description: string }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: opts.title, version: opts.version, description: opts.description },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  // The reference page and the document describe the API to anybody (G9).
  await registerPublic(app, swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
});
