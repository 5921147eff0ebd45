import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { partPresent } from '@app/shared/test/parts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clamdScanner, EICAR } from '../src/infra/virus-scanner/virus-scanner.js';
import { type Clamd, findClamd, startClamd } from './clamd.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { type FilePart, form } from './multipart.js';

/** Receipts (A13): streamed, scanned first (a real clamd, or the built-in EICAR check), typed by content, stored. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  randomBytes(64),
  Buffer.from([0xff, 0xd9]),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const FIELDS = {
  expenseDate: '2026-05-04',
  category: 'Travel',
  amount: '118.80',
  taxAmount: '19.80',
  description: 'Taxi',
};

function suite(name: string, env: () => Record<string, string>) {
  describe(name, () => {
    let t: TestApp;
    let owner: Session;
    beforeAll(async () => {
      t = await buildTestApp({ RATE_LIMITS: 'off', ...env() });
      owner = await registerOrg(t.app);
    });
    afterAll(async () => t?.close());

    const upload = (fields: Record<string, string>, file?: FilePart, method = 'POST', url = '/api/v1/expenses') =>
      t.app.inject(authed(owner.token, { method: method as 'POST', url, ...form(fields, file) }));
    const expenseCount = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*)::text AS n FROM expenses WHERE organization_id = ${owner.orgId}`.execute(t.t.db.system)
        ).rows[0].n,
      );
    const storedFiles = () => {
      const dir = join(t.config.dataDir, 'files', 'receipts', owner.orgId);
      return existsSync(dir) ? readdirSync(dir) : [];
    };
    const stagingLeft = () => {
      const dir = join(t.config.dataDir, 'tmp');
      return existsSync(dir) ? readdirSync(dir) : [];
    };

    it.each([
      ['a PDF', { filename: 'r.pdf', type: 'application/pdf', data: PDF }, 'application/pdf'],
      ['a PNG', { filename: 'r.png', type: 'image/png', data: PNG }, 'image/png'],
      ['a JPEG', { filename: 'r.jpg', type: 'image/jpeg', data: JPEG }, 'image/jpeg'],
      [
        'a PNG named .txt and declared text/plain',
        { filename: 'note.txt', type: 'text/plain', data: PNG },
        'image/png',
      ],
    ])('stores %s and serves it at receiptUrl with the type of its content', async (_n, file, type) => {
      const res = await upload(FIELDS, file);
      expect(res.statusCode).toBe(201);
      const e = res.json();
      expect(e).toMatchObject({
        status: 'pending',
        amount: '118.80',
        taxAmount: '19.80',
        receiptUrl: `/api/v1/expenses/${e.id}/receipt`,
      });
      const got = await t.app.inject(authed(owner.token, { method: 'GET', url: e.receiptUrl }));
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(type);
      expect(got.rawPayload.equals(file.data)).toBe(true);
      expect(stagingLeft()).toEqual([]);
    });

    it('refuses a text file named .pdf with 422 SVC-4006 and stores nothing', async () => {
      const before = await expenseCount();
      const res = await upload(FIELDS, {
        filename: 'invoice.pdf',
        type: 'application/pdf',
        data: Buffer.from('just some text, not a PDF\n'),
      });
      expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-4006']);
      expect(await expenseCount()).toBe(before);
      expect(stagingLeft()).toEqual([]);
    });

    it('stops an 11 MB upload with 413 SVC-4005 and stores nothing', async () => {
      const before = await expenseCount();
      const files = storedFiles().length;
      const big = Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024, 0x20)]);
      const res = await upload(FIELDS, { filename: 'big.pdf', type: 'application/pdf', data: big });
      expect([res.statusCode, res.json().error.code]).toEqual([413, 'SVC-4005']);
      expect(await expenseCount()).toBe(before);
      expect(storedFiles().length).toBe(files);
      expect(stagingLeft()).toEqual([]);
    });

    it('refuses the EICAR test file with 422 SVC-4008 before looking at its type, and stores nothing', async () => {
      const before = await expenseCount();
      const res = await upload(FIELDS, { filename: 'eicar.pdf', type: 'application/pdf', data: Buffer.from(EICAR) });
      expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-4008']);
      expect(res.json().error.details.receiptFile[0]).toContain('Eicar');
      expect(await expenseCount()).toBe(before);
      expect(stagingLeft()).toEqual([]);
    });

    it('validates the form fields like a JSON body (a text amount is refused)', async () => {
      const res = await upload({ ...FIELDS, amount: 'twelve' }, { filename: 'r.png', type: 'image/png', data: PNG });
      expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-9003']);
      expect(res.json().error.details.amount).toBeDefined();
      expect(stagingLeft()).toEqual([]);
      const missing = await upload({ expenseDate: '2026-05-04', amount: '1' });
      expect(missing.json().error.details.category).toBeDefined();
    });

    it('creates an expense from a form without a file', async () => {
      const res = await upload(FIELDS);
      expect(res.statusCode).toBe(201);
      expect(res.json().receiptUrl).toBeNull();
    });

    it('replaces the receipt of a pending expense on a multipart PUT and removes the old file', async () => {
      const e = (await upload(FIELDS, { filename: 'a.pdf', type: 'application/pdf', data: PDF })).json();
      const before = storedFiles().length;
      const res = await upload(
        { amount: '200' },
        { filename: 'b.png', type: 'image/png', data: PNG },
        'PUT',
        `/api/v1/expenses/${e.id}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().amount).toBe('200.00');
      const got = await t.app.inject(authed(owner.token, { method: 'GET', url: e.receiptUrl }));
      expect(got.headers['content-type']).toBe('image/png');
      expect(storedFiles().length).toBe(before);
    });

    it('answers 404 for the receipt of an expense without one', async () => {
      const e = (await upload(FIELDS)).json();
      const res = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/expenses/${e.id}/receipt` }));
      expect(res.statusCode).toBe(404);
    });

    it('answers 500 SVC-4007 when storage fails after a clean scan, and the expense is not created', async () => {
      const fresh = await registerOrg(t.app);
      // A plain file where the organization's receipt directory should be: storage cannot write.
      mkdirSync(join(t.config.dataDir, 'files', 'receipts'), { recursive: true });
      writeFileSync(join(t.config.dataDir, 'files', 'receipts', fresh.orgId), 'not a directory');
      const res = await t.app.inject(
        authed(fresh.token, {
          method: 'POST',
          url: '/api/v1/expenses',
          ...form(FIELDS, { filename: 'r.png', type: 'image/png', data: PNG }),
        }),
      );
      expect([res.statusCode, res.json().error.code]).toEqual([500, 'SVC-4007']);
      const n = await sql<{
        n: string;
      }>`SELECT count(*)::text AS n FROM expenses WHERE organization_id = ${fresh.orgId}`.execute(t.t.db.system);
      expect(n.rows[0].n).toBe('0');
      expect(stagingLeft()).toEqual([]);
    });
  });
}

const clamdBinary = findClamd();
let clamd: Clamd | null = null;
const haveClamd = partPresent(
  'clamd',
  clamdBinary ? null : 'not installed; Debian: apt-get install clamav-daemon',
  'expenses-receipts (real clamd)',
);

describe.skipIf(!haveClamd)('with a real clamd', () => {
  beforeAll(async () => {
    clamd = await startClamd(clamdBinary!);
  }, 60_000);
  afterAll(async () => clamd?.stop());
  suite('receipts scanned by clamd over its Unix socket', () => ({ CLAMAV_SOCKET: clamd!.socket }));

  it('clamd itself names the EICAR file and passes a PNG (INSTREAM, chunked)', async () => {
    const scan = async (data: Buffer) => {
      const session = clamdScanner({ socket: clamd!.socket }, 5000).start();
      for (let i = 0; i < data.length; i += 7) await session.write(data.subarray(i, i + 7));
      return session.verdict();
    };
    // The .hdb signature is reported as unofficial (clamd's own naming for local databases).
    expect(await scan(Buffer.from(EICAR))).toMatch(/^Eicar-Test-Signature/);
    expect(await scan(PNG)).toBeNull();
  });
});

suite('receipts checked by the built-in EICAR check (no scanner configured)', () => ({}));

describe('clamd configured but down', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMITS: 'off', CLAMAV_SOCKET: '/nonexistent/clamd.sock', CLAMAV_TIMEOUT: '2s' });
    owner = await registerOrg(t.app);
  });
  afterAll(async () => t?.close());

  it('answers 503 SVC-9007 with Retry-After and stores nothing', async () => {
    const res = await t.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/expenses',
        ...form(FIELDS, { filename: 'r.png', type: 'image/png', data: PNG }),
      }),
    );
    expect([res.statusCode, res.json().error.code]).toEqual([503, 'SVC-9007']);
    expect(res.headers['retry-after']).toBeDefined();
    const n = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM expenses WHERE organization_id = ${owner.orgId}`.execute(t.t.db.system);
    expect(n.rows[0].n).toBe('0');
  });

  it('still takes an expense without a receipt', async () => {
    const res = await t.app.inject(authed(owner.token, { method: 'POST', url: '/api/v1/expenses', ...form(FIELDS) }));
    expect(res.statusCode).toBe(201);
  });
});
