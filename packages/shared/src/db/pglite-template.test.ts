import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openRawPool } from './database.js';
import { createPgliteTemplate, isNewEmbeddedDatabase, pgliteTemplatePath } from './pglite-template.js';

// Issue 25 item 8: a new embedded database starts as a copy of the prepared cluster instead of
// running initdb; an existing one is opened as it is.
it('creates the prepared cluster once and starts a new embedded database from it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const template = pgliteTemplatePath(dataDir);
  expect(template).toMatch(/[/\\]\.pglite[/\\]initdb-\d+\.\d+\.\d+\.tar$/);
  expect(await createPgliteTemplate(template)).toBe(true);
  expect(await createPgliteTemplate(template)).toBe(false);

  // A template with a marker row: the new database must be a copy of it.
  const { PGlite } = await import('@electric-sql/pglite');
  const source = await PGlite.create({ loadDataDir: new Blob([readFileSync(template)]) });
  await source.exec('CREATE TABLE marker (id int); INSERT INTO marker VALUES (7)');
  const marked = join(dataDir, 'marked.tar');
  writeFileSync(marked, Buffer.from(await (await source.dumpDataDir('none')).arrayBuffer()));
  await source.close();

  const dir = join(dataDir, 'service');
  expect(isNewEmbeddedDatabase(dir)).toBe(true);
  const pool = await openRawPool({ url: dir, appRole: '', template: marked });
  const conn = await pool.acquire();
  expect((await conn.query('SELECT id FROM marker', [])).rows).toEqual([{ id: 7 }]);
  await conn.script('INSERT INTO marker VALUES (8)');
  pool.release(conn);
  await pool.close();
  expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
  expect(isNewEmbeddedDatabase(dir)).toBe(false);

  // Opened again, the template is not loaded over the existing data: the later row is still there.
  const again = await openRawPool({ url: dir, appRole: '', template: marked });
  const c2 = await again.acquire();
  expect((await c2.query('SELECT id FROM marker ORDER BY id', [])).rows).toEqual([{ id: 7 }, { id: 8 }]);
  again.release(c2);
  await again.close();
  expect(isNewEmbeddedDatabase('memory://')).toBe(false);
  expect(isNewEmbeddedDatabase('postgres://u@h/db')).toBe(false);
}, 120_000);
