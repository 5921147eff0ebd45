import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { isNewEmbeddedDatabase, pgliteTemplatePath } from './db/pglite-template.js';
import { listenGracefully } from './http.js';

/** A step of a service's start, as `npm start` (scripts/start-all.ts) prints it. */
export interface StartupReport {
  service: string;
  text: string;
  /** Set on the last report: the address the service listens at. */
  url?: string;
}

/**
 * One service's start, the same for both services: the database (a new embedded one from the
 * prepared cluster when there is one), the migrations, the app, listen. Each step is reported over
 * the IPC channel `npm start` opens (issue 25 item 8: a first start used to say nothing for half a
 * minute); a service started without one (`node dist/server.js`) reports nothing and logs as before.
 */
export async function startService<DB>(o: {
  name: string;
  databaseUrl: string;
  dataDir: string;
  appRole: string;
  settings?: Readonly<Record<string, string>>;
  migrations: string;
  port: number;
  host: string;
  buildApp: (db: Database<DB>) => Promise<FastifyInstance>;
}): Promise<void> {
  const report = (text: string, url?: string) => process.send?.({ service: o.name, text, url } satisfies StartupReport);
  const isNew = isNewEmbeddedDatabase(o.databaseUrl);
  const template = isNew ? pgliteTemplatePath(o.dataDir) : undefined;
  if (isNew) {
    report(
      template && existsSync(template)
        ? `creating the embedded database in ${o.databaseUrl} from the prepared cluster`
        : `creating the embedded database in ${o.databaseUrl} (initdb, the slow part of a first start)`,
    );
  } else {
    report('opening the database');
  }
  const db = await createDatabase<DB>({ url: o.databaseUrl, appRole: o.appRole, settings: o.settings, template });
  report('applying the migrations');
  const applied = await migrate(db.raw, o.migrations);
  if (applied.length) report(`applied ${applied.length} migrations`);
  const app = await o.buildApp(db);
  await listenGracefully(app, { port: o.port, host: o.host, onClose: () => db.close() });
  const host = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `http://${host}:${o.port}`;
  report(`listening at ${url}`, url);
  // The channel would keep the process alive past a graceful shutdown.
  if (process.connected) process.disconnect();
}
