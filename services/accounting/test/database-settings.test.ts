import { createDatabase, type Database } from '@app/shared/db/database';
import { startupOptions } from '@app/shared/db/raw-client';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_SETTINGS } from '../src/db/settings.js';
import { buildTestApp } from './helpers.js';

describe('database settings (db/settings.ts)', () => {
  it('become startup options, and only plain names and values are accepted', () => {
    expect(startupOptions(DATABASE_SETTINGS)).toBe('-c plan_cache_mode=force_generic_plan');
    expect(startupOptions({})).toBeUndefined();
    expect(() => startupOptions({ plan_cache_mode: 'auto -c role=postgres' })).toThrow(/unsupported/);
    expect(() => startupOptions({ 'x y': '1' })).toThrow(/unsupported/);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL (needs TEST_DATABASE_URL)', () => {
    let db: Database<unknown> | undefined;
    afterAll(async () => db?.close());

    it('every pooled connection runs with them, also after a context script', async () => {
      db = await createDatabase({
        url: process.env.TEST_DATABASE_URL!,
        appRole: 'accounting_app',
        settings: DATABASE_SETTINGS,
        poolSize: 2,
      });
      const show = async () =>
        (
          await db!.raw.acquire().then(async (c) => {
            try {
              return (await c.query('SHOW plan_cache_mode', [])).rows[0] as { plan_cache_mode: string };
            } finally {
              db!.raw.release(c);
            }
          })
        ).plan_cache_mode;
      const seen = await Promise.all([show(), show(), show()]);
      expect(seen).toEqual(['force_generic_plan', 'force_generic_plan', 'force_generic_plan']);
      await db.query({ kind: 'system' }, 'SELECT 1', []);
      expect(await show()).toBe('force_generic_plan');
    });

    it("the suite's own app runs with them too, as the service does", async () => {
      const t = await buildTestApp();
      try {
        const [row] = await t.t.db.query<{ plan_cache_mode: string }>({ kind: 'system' }, 'SHOW plan_cache_mode', []);
        expect(row.plan_cache_mode).toBe('force_generic_plan');
      } finally {
        await t.close();
      }
    });
  });
});
