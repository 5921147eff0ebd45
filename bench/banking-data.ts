/** Data and API steps shared by the banking benchmarks (bench/banking.ts, bench/banking-memory.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { json } from './lib.js';

export const ROWS = 80_000;

/** A statement of ROWS lines just under 5 MB; `year` keeps two statements apart. */
export function statement(year: number): Buffer<ArrayBuffer> {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const d = `${year}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const amount = (((i % 2 ? -1 : 1) * (((i * 7919) % 500_000) + 1)) / 100).toFixed(2);
    lines.push(`${d},Uplata racun br ${String(i).padStart(6, '0')} usluge,${amount},RF${String(i).padStart(8, '0')}`);
  }
  const buf = Buffer.from(`${lines.join('\n')}\n`);
  if (buf.length > 5 * 1024 * 1024) throw new Error(`statement too large: ${buf.length}`);
  return buf;
}

export function multipart(csv: Buffer) {
  const boundary = '----benchboundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** Linux: a process's status fields in kB, and its peak RSS reset (clear_refs 5) before a piece of work. */
export const procStatus = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
export const kb = (status: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
export function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** One organization on an accounting service, driven through its API. */
export class BankingApi {
  orgId = '';
  headers: Record<string, string> = {};
  constructor(readonly base: string) {}

  async register(email: string) {
    const reg = await json(
      await fetch(`${this.base}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organizationName: 'Bench d.o.o.',
          country: 'RS',
          baseCurrency: 'RSD',
          language: 'sr',
          email,
          password: 'Correct-Horse-9',
          fullName: 'Bench',
        }),
      }),
    );
    this.orgId = reg.organization.id as string;
    this.headers = { authorization: `Bearer ${reg.tokens.accessToken}`, 'content-type': 'application/json' };
  }
  async newLedger(code: string) {
    return (
      await json(
        await fetch(`${this.base}/accounts`, {
          method: 'POST',
          headers: this.headers,
          body: JSON.stringify({ code, name: `Bank ${code}`, accountTypeId: 1 }),
        }),
      )
    ).id as string;
  }
  async newBank(accountId: string) {
    return (
      await json(
        await fetch(`${this.base}/bank-accounts`, {
          method: 'POST',
          headers: this.headers,
          body: JSON.stringify({ accountId, bankName: 'Bench banka', currencyCode: 'RSD' }),
        }),
      )
    ).id as string;
  }
  async importTo(bankId: string, csv: Buffer) {
    const { body, type } = multipart(csv);
    const t0 = performance.now();
    const res = await fetch(`${this.base}/bank-accounts/${bankId}/import`, {
      method: 'POST',
      headers: { authorization: this.headers.authorization, 'content-type': type },
      body,
    });
    const out = await json(res);
    return { ms: performance.now() - t0, out };
  }

  /**
   * The list benchmark's data: 100,000 postings on one ledger account (seeded in SQL as the owner: half
   * money in, half money out, amounts and dates spread), then 20 bank lines whose amounts and dates are
   * those of existing postings, half of them shifted by days. Answers the list URL and its ids.
   */
  async seedSuggestionList(dbUrl: string) {
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    try {
      const accounts = (await json(await fetch(`${this.base}/accounts`, { headers: this.headers }))).data as Array<{
        id: string;
        code: string;
      }>;
      const code = (c: string) => accounts.find((a) => a.code === c)!.id;
      const ledger = await this.newLedger('1190');
      const bankId = await this.newBank(ledger);
      await admin.query(
        `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id, amount,
           currency_code, exchange_rate, base_amount, reference_type, locked)
         SELECT $1, DATE '2024-01-01' + (g % 900), 'Seed posting ' || g,
           CASE WHEN g % 2 = 0 THEN $2::uuid ELSE $4::uuid END, CASE WHEN g % 2 = 0 THEN $3::uuid ELSE $2::uuid END,
           ((g * 7919) % 500000 + 1) / 100.0, 'RSD', 1, ((g * 7919) % 500000 + 1) / 100.0, 'manual', false
         FROM generate_series(1, 100000) g`,
        [this.orgId, ledger, code('4900'), code('5000')],
      );
      await admin.query('ANALYZE ledger_transactions');
      const lines = Array.from({ length: 20 }, (_, i) => {
        const g = 1000 + i * 37;
        const amount = (((g * 7919) % 500000) + 1) / 100;
        const date = new Date(Date.UTC(2024, 0, 1) + ((g % 900) + (i % 2 ? 0 : 2)) * 86_400_000)
          .toISOString()
          .slice(0, 10);
        return `${date},Line ${i},${(g % 2 === 0 ? amount : -amount).toFixed(2)},`;
      });
      await this.importTo(bankId, Buffer.from(`${lines.join('\n')}\n`));
      return {
        bankId,
        ledger,
        listUrl: `${this.base}/bank-accounts/${bankId}/transactions?reconciled=false&perPage=20`,
      };
    } finally {
      await admin.end().catch(() => {});
    }
  }
}

/**
 * Start-up variants of the accounting service from BENCH_VARIANTS ("name:flag,VAR=value|name2:..."),
 * by default V8's defaults and the flags scripts/node-flags.ts gives the service.
 */
export function serviceVariants(
  defaultFlags: string[],
): Array<{ name: string; spec: string; env: Record<string, string>; args: string[] }> {
  return (
    process.env.BENCH_VARIANTS ?? `V8 defaults|as npm start runs it (scripts/node-flags.ts):${defaultFlags.join(',')}`
  )
    .split('|')
    .map((v) => {
      const [name, spec = ''] = v.split(':');
      const env: Record<string, string> = {};
      const args: string[] = [];
      for (const part of spec.split(',').filter(Boolean)) {
        if (part.startsWith('--')) args.push(part);
        else env[part.slice(0, part.indexOf('='))] = part.slice(part.indexOf('=') + 1);
      }
      return { name, spec, env, args };
    });
}
