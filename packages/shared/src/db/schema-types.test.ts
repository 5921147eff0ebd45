import type { ColumnType } from 'kysely';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Numeric } from './column-types.js';
import { openRawPool } from './database.js';
import type { RawPool } from './raw-client.js';
import { allowedValues, generateSchemaTypes } from './schema-types.js';

describe('generateSchemaTypes', () => {
  let pool: RawPool;
  let output: string;

  beforeAll(async () => {
    pool = await openRawPool({ url: 'memory://', appRole: '' });
    const conn = await pool.acquire();
    try {
      await conn.script(`
        CREATE TYPE mood AS ENUM ('calm', 'tense');
        CREATE DOMAIN positive_amount AS numeric(19, 4) CHECK (VALUE > 0);
        CREATE TABLE samples (
          id bigserial PRIMARY KEY,
          amount numeric(19, 4) NOT NULL,
          fee positive_amount,
          counted bigint NOT NULL,
          day date NOT NULL,
          at timestamptz NOT NULL DEFAULT now(),
          status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'it''s done')),
          kind varchar(10) CHECK (kind IN ('a', 'b')),
          only_one text CHECK (only_one = 'x'),
          code text CHECK (code ~ '^[A-Z]+$'),
          feeling mood,
          tags text[] NOT NULL,
          payload jsonb,
          amount_text text GENERATED ALWAYS AS (amount::text) STORED
        );
        CREATE TABLE schema_migrations (name text PRIMARY KEY);
      `);
    } finally {
      pool.release(conn);
    }
    output = await generateSchemaTypes(pool, 'a test');
  });

  afterAll(() => pool.close());

  it('types numeric as a decimal string both ways, never as a number', () => {
    expect(output).toContain(
      "import type { Generated, GeneratedAlways, Json, Numeric, Timestamp } from '@app/shared/db/column-types';",
    );
    expectTypeOf<Numeric>().toEqualTypeOf<ColumnType<string, string, string>>();
    expect(output).toContain('  amount: Numeric;');
    // A domain over numeric is still numeric.
    expect(output).toContain('  fee: Numeric | null;');
  });

  it('types the columns as the drivers return them', () => {
    expect(output).toContain('  id: Generated<number>;');
    expect(output).toContain('  counted: number;');
    expect(output).toContain('  day: string;');
    expect(output).toContain('  at: Generated<Timestamp>;');
    expect(output).toContain('  tags: string[];');
    expect(output).toContain('  payload: Json | null;');
    expect(output).toContain('  amount_text: GeneratedAlways<string | null>;');
  });

  it('turns IN and equality checks and enums into literal unions, other checks into the base type', () => {
    expect(output).toContain(`  status: Generated<'open' | 'it\\'s done'>;`);
    expect(output).toContain(`  kind: 'a' | 'b' | null;`);
    expect(output).toContain(`  only_one: 'x' | null;`);
    expect(output).toContain('  code: string | null;');
    expect(output).toContain(`  feeling: 'calm' | 'tense' | null;`);
  });

  it('lists every table but the migration log in DB', () => {
    expect(output).toContain('export interface DB {\n  samples: SamplesTable;\n}\n');
  });

  it('refuses a column type it has no mapping for', async () => {
    const conn = await pool.acquire();
    try {
      await conn.script('CREATE TABLE odd (span interval)');
    } finally {
      pool.release(conn);
    }
    await expect(generateSchemaTypes(pool, 'a test')).rejects.toThrow('odd.span: no mapping for type interval');
  });
});

describe('allowedValues', () => {
  it('reads the list PostgreSQL prints for IN over varchar', () => {
    expect(
      allowedValues(
        `CHECK (((kind)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[])))`,
        'kind',
      ),
    ).toEqual(['a', 'b']);
  });

  it('ignores a check on another column or with other conditions', () => {
    expect(allowedValues(`CHECK ((kind = ANY (ARRAY['a'::text, 'b'::text])))`, 'other')).toBeNull();
    expect(allowedValues(`CHECK (((kind = 'a'::text) OR (n > 0)))`, 'kind')).toBeNull();
  });
});
