import type { FastifyInstance } from 'fastify';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { authed, type Session } from './helpers.js';

/** Small helpers for the report suites. */
export async function accountIds(app: FastifyInstance, s: Session): Promise<Record<string, string>> {
  const res = await app.inject(authed(s.token, { method: 'GET', url: '/api/v1/accounts' }));
  return Object.fromEntries(res.json().data.map((a: { code: string; id: string }) => [a.code, a.id]));
}

export async function manualEntry(
  app: FastifyInstance,
  s: Session,
  ids: Record<string, string>,
  date: string,
  debit: string,
  credit: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  const res = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: '/api/v1/transactions',
      payload: {
        transactionDate: date,
        description: `${debit}/${credit}`,
        debitAccountId: ids[debit],
        creditAccountId: ids[credit],
        amount,
        ...extra,
      },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`entry: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function report(app: FastifyInstance, s: Session, path: string) {
  const res = await app.inject(authed(s.token, { method: 'GET', url: `/api/v1/reports/${path}` }));
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function pdfText(buf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    text += `${content.items.map((it) => ('str' in it ? it.str : '')).join(' ')}\n`;
  }
  return text;
}
