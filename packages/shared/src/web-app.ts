import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerPublic } from './routes.js';

/** Paths that belong to the API and the service's own pages: never answered with the app (W3). */
const SERVICE_PREFIXES = ['/api', '/v1', '/docs', '/openapi.json', '/health'];

/** Hashed file names (Vite's `name-[hash].ext`): their content never changes, so a year of caching (W3). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The page's own policy: scripts and styles from this origin only (Mantine sets inline style
 * attributes), PDFs and images shown from blob: URLs, never framed by another site.
 */
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function isServicePath(url: string): boolean {
  const path = url.split('?')[0];
  return SERVICE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * A web app served by its service (W1, W2, W3; the accounting and the remittance app), built by Vite
 * into `root` (apps/<name>-web/dist):
 * `/assets/*` are the hashed bundles, cached for a year; any other GET that accepts HTML and is not
 * a service path answers index.html (the app routes on the client), never cached; everything else
 * keeps the API's JSON 404. Without a build the API works as before and the fallback answers 404.
 */
export async function webAppRoutes(app: FastifyInstance, opts: { root: string }): Promise<void> {
  let index: Buffer | null = null;
  const loadIndex = async () => {
    index ??= await readFile(join(opts.root, 'index.html')).catch(() => null);
    return index;
  };
  if (!(await loadIndex())) {
    app.log.warn({ root: opts.root }, 'web app not built (npm run build): / answers 404 until it is');
  }

  await registerPublic(app, fastifyStatic, {
    root: join(opts.root, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    // Only files under root are served; dotfiles and directory listings are refused.
    dotfiles: 'deny',
    cacheControl: false,
    // The build writes .br and .gz beside each bundle (scripts/build-web.ts); sent when accepted.
    preCompressed: true,
    setHeaders: (reply) => reply.header('cache-control', IMMUTABLE),
  });

  const fallback = async (request: FastifyRequest, reply: FastifyReply) => {
    const html = !isServicePath(request.url) && wantsHtml(request) ? await loadIndex() : null;
    if (!html) return reply.callNotFound();
    return reply
      .header('cache-control', 'no-cache, no-store, must-revalidate')
      .header('content-security-policy', APP_CSP)
      .type('text/html; charset=utf-8')
      .send(html);
  };
  app.get('/*', { config: { public: true }, schema: { hide: true } }, fallback);
}
