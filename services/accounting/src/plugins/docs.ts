import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

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
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
