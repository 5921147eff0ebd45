import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  RouteOptions,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers callers who are not signed in. Every other route requires a session:
     * routes are closed by default (STYLE 14), so forgetting a line leaves a route closed.
     */
    public?: boolean;
  }
}

/** One registered route as the security suites see it. */
export interface RouteEntry {
  readonly method: string;
  readonly url: string;
  readonly public: boolean;
  readonly config: FastifyContextConfig;
}

/**
 * Records every route the app registers from here on (HEAD twins left out), public ones included,
 * so the security suite walks the whole map and a new route cannot skip it.
 */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    // Read when asked, not now: an onRoute hook added later (registerPublic) may still mark it.
    const config = () => (route.config ?? {}) as FastifyContextConfig;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        get public() {
          return config().public === true;
        },
        get config() {
          return config();
        },
      });
    }
  });
  return routes;
}

/**
 * Registers a third-party plugin whose routes are public (the API reference page, the CORS
 * preflight route): its routes cannot carry our config, so they are marked as they are added.
 * The plugin's hooks and decorators still land where `app.register` puts them.
 */
export async function registerPublic<Options extends object>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  opts: Options,
): Promise<void> {
  let marking = true;
  app.addHook('onRoute', (route: RouteOptions) => {
    if (marking) route.config = { ...(route.config as FastifyContextConfig), public: true };
  });
  try {
    await app.register(plugin as FastifyPluginAsync<Options>, opts);
  } finally {
    marking = false;
  }
}
