import { dec, roundHalfUp } from '@app/shared/money';
import type { Job } from '@app/shared/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { create } from 'xmlbuilder2';
import type { DB } from '../../db/types.js';
import { organizationToday } from '../../lib/calendar.js';
import { elementText, findElements, parseXml, type XmlNode } from '../../lib/xml-tree.js';
import { isKnownCurrency } from '../currencies/currencies.js';
import { upsertGlobalRates } from './exchange-rates.repository.js';
import { claimFeedDay, feedDayDone } from './feed-day.js';

/**
 * The National Bank of Serbia's middle exchange rates (A6: "NBS where feasible"), the rates a
 * Serbian organization must use for its documents in a foreign currency. NBS publishes them through
 * its SOAP web service for registered users (a user name, a password and a licence id, issued by
 * NBS on request); there is no public file like the ECB's. The service, its operations and the
 * answer's fields are as NBS publishes them (docs/accounting/books.md#nbs-feed):
 *
 * - POST to ExchangeRateXmlService.asmx, SOAP 1.1, SOAPAction `http://communicationoffice.nbs.rs/<operation>`,
 *   the credentials in an `AuthenticationHeader` SOAP header;
 * - `GetCurrentExchangeRate(exchangeRateListTypeID)` and `GetExchangeRateByDate(date YYYYMMDD,
 *   exchangeRateListTypeID)`; list type 3 is the middle rate (srednji kurs);
 * - the answer's `…Result` holds an `ExchangeRateDataSet` (as escaped XML text, or inline in a
 *   .NET diffgram) of `ExchangeRate` rows: `Date` (dd.MM.yyyy), `CurrencyCodeAlfaChar`, `Unit`,
 *   `MiddleRate` (dinars for `Unit` units of the currency).
 *
 * Stored as global rows "1 <currency> = rate RSD" (MiddleRate / Unit) with source `nbs`, so a
 * dinar document in a foreign currency takes the NBS rate directly rather than a cross rate
 * through the euro (rateInForce prefers a direct quote on the same date).
 */
export const NBS_DEFAULT_URL = 'https://webservices.nbs.rs/CommunicationOfficeService1_0/ExchangeRateXmlService.asmx';
export const NBS_NAMESPACE = 'http://communicationoffice.nbs.rs';
/** The middle exchange rate list (srednji kurs). */
export const NBS_MIDDLE_RATE_LIST = 3;
const JOB = 'nbs-rates';
/** Days a missed list is looked up for after downtime. */
const BACKFILL_DAYS = 14;

export interface NbsCredentials {
  username: string;
  password: string;
  licenceId: string;
}

export interface NbsSettings {
  url: string;
  credentials: NbsCredentials;
  listType: number;
  intervalMs: number;
}

/** Null when the feed is off or NBS credentials are not configured (the ECB feed still runs). */
export function nbsSettings(config: {
  enabled: boolean;
  nbs: { url: string | null; credentials: NbsCredentials | null; listType: number };
}): NbsSettings | null {
  if (!config.enabled || !config.nbs.credentials) return null;
  return {
    url: config.nbs.url || NBS_DEFAULT_URL,
    credentials: config.nbs.credentials,
    listType: config.nbs.listType,
    intervalMs: 60 * 60 * 1000,
  };
}

export type NbsOperation = 'GetCurrentExchangeRate' | 'GetExchangeRateByDate';

/** The SOAP 1.1 request of an operation, with the credentials in its header (every value escaped). */
export function nbsEnvelope(
  operation: NbsOperation,
  credentials: NbsCredentials,
  params: Record<string, string | number>,
): string {
  const doc = create({ version: '1.0', encoding: 'utf-8' }).ele(
    'http://schemas.xmlsoap.org/soap/envelope/',
    'soap:Envelope',
  );
  const auth = doc.ele('soap:Header').ele(NBS_NAMESPACE, 'AuthenticationHeader');
  auth.ele(NBS_NAMESPACE, 'UserName').txt(credentials.username);
  auth.ele(NBS_NAMESPACE, 'Password').txt(credentials.password);
  auth.ele(NBS_NAMESPACE, 'LicenceID').txt(credentials.licenceId);
  const op = doc.ele('soap:Body').ele(NBS_NAMESPACE, operation);
  for (const [name, value] of Object.entries(params)) op.ele(NBS_NAMESPACE, name).txt(String(value));
  return doc.end();
}

export interface NbsRate {
  currency: string;
  /** Dinars for one unit of the currency, unrounded beyond NBS's own digits. */
  rate: string;
}

export interface NbsList {
  date: string;
  rates: NbsRate[];
}

function isoDate(text: string | null): string {
  const dotted = text?.match(/^(\d{2})\.(\d{2})\.(\d{4})/);
  if (dotted) return `${dotted[3]}-${dotted[2]}-${dotted[1]}`;
  const iso = text?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  throw new Error(`NBS list: unreadable date "${text}"`);
}

/**
 * Reads an operation's answer: the list (its date and the rates of every row with a middle rate),
 * or null when NBS has no list for the date (a weekend or a holiday). A SOAP fault (wrong
 * credentials, a bad parameter) or a document that is not the answer throws.
 */
export function parseNbsAnswer(xml: string, operation: NbsOperation): NbsList | null {
  let tree: XmlNode;
  try {
    tree = parseXml(xml);
  } catch {
    throw new Error('NBS answer is not XML');
  }
  const fault = findElements(tree, 'Fault')[0];
  if (fault !== undefined) {
    const reason = elementText(findElements(fault, 'faultstring')[0]) ?? elementText(findElements(fault, 'Text')[0]);
    throw new Error(`NBS refused the request: ${reason ?? 'SOAP fault'}`);
  }
  const result = findElements(tree, `${operation}Result`);
  if (result.length === 0) throw new Error(`NBS answer holds no ${operation}Result`);
  // The XML service returns the data set as text (escaped XML); read it as a document of its own.
  const inner = elementText(result[0]);
  const rows = findElements(inner?.startsWith('<') ? parseXml(inner) : result[0], 'ExchangeRate');
  if (rows.length === 0) return null;
  const dates = new Set<string>();
  const rates: NbsRate[] = [];
  for (const row of rows) {
    const field = (name: string) => elementText(findElements(row, name)[0]);
    dates.add(isoDate(field('Date')));
    const currency = field('CurrencyCodeAlfaChar')?.toUpperCase() ?? '';
    const unit = field('Unit') ?? '';
    const middle = (field('MiddleRate') ?? '').replace(',', '.');
    if (!/^[A-Z]{3}$/.test(currency) || !/^[1-9]\d*$/.test(unit)) {
      throw new Error(`NBS list: unreadable row (currency "${currency}", unit "${unit}")`);
    }
    // A row without a middle rate (a list of another type) carries nothing to store.
    if (!/^\d+(\.\d+)?$/.test(middle) || dec(middle).isZero()) continue;
    rates.push({ currency, rate: roundHalfUp(dec(middle).div(unit), 10).toFixed() });
  }
  if (dates.size !== 1) throw new Error(`NBS list: rows of ${dates.size} dates`);
  if (rates.length === 0) throw new Error('NBS list holds no middle rates (is NBS_RATE_LIST the middle rate list?)');
  return { date: [...dates][0], rates };
}

/** Calls one operation; an unreachable service, an HTTP error without a SOAP answer or a fault throws. */
export async function callNbs(
  settings: Pick<NbsSettings, 'url' | 'credentials'>,
  operation: NbsOperation,
  params: Record<string, string | number>,
  fetchImpl: typeof fetch = fetch,
): Promise<NbsList | null> {
  const res = await fetchImpl(settings.url, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NBS_NAMESPACE}/${operation}"` },
    body: nbsEnvelope(operation, settings.credentials, params),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await res.text();
  // SOAP 1.1 answers a fault with 500: read it for its reason.
  if (!res.ok && !body.includes('Fault')) throw new Error(`NBS answered ${res.status}`);
  return parseNbsAnswer(body, operation);
}

/** The global rows of a list: the currencies the service knows, "1 currency = rate RSD". */
export function nbsRows(list: NbsList) {
  return list.rates
    .filter((r) => r.currency !== 'RSD' && isKnownCurrency(r.currency))
    .map((r) => ({
      baseCurrency: r.currency,
      targetCurrency: 'RSD',
      rate: r.rate,
      effectiveDate: list.date,
      source: 'nbs' as const,
    }));
}

const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export type NbsOutcome =
  | {
      status: 'imported';
      /** The date of NBS's current list; the day is recorded as done only when it is today's. */
      listDate: string;
      rows: number;
      /** Earlier dates looked up because no NBS rate was stored for them (after downtime). */
      backfilled: string[];
      /** Dates whose look-up failed; logged, and entered by hand if NBS stays unreachable for them. */
      missed: string[];
      done: boolean;
    }
  | { status: 'already-done' }
  | { status: 'busy' };

/**
 * One run: today's list (and any list missed since the last stored NBS rate, at most 14 days back),
 * stored in one transaction. The calls to NBS are made before the transaction, so no connection
 * waits on them; the writes take a transaction-scoped advisory lock and record the day in
 * job_runs once the current list is today's (Belgrade time): before NBS publishes, the run stores
 * yesterday's list again (a no-op) and the next hourly run asks again.
 */
export async function runNbsImport(
  system: Kysely<DB>,
  opts: Pick<NbsSettings, 'url' | 'credentials' | 'listType'> & { fetchImpl?: typeof fetch; now?: Date },
): Promise<NbsOutcome> {
  const today = organizationToday('RS', opts.now);
  if (await feedDayDone(system, JOB, today)) return { status: 'already-done' };

  const listType = opts.listType;
  const current = await callNbs(opts, 'GetCurrentExchangeRate', { exchangeRateListTypeID: listType }, opts.fetchImpl);
  if (!current) throw new Error('NBS answered an empty current list');
  const last = await system
    .selectFrom('exchange_rates')
    .select((eb) => eb.fn.max('effective_date').as('date'))
    .where('organization_id', 'is', null)
    .where('source', '=', 'nbs')
    .where('effective_date', '<', current.date)
    .executeTakeFirst();
  const lists = [current];
  const backfilled: string[] = [];
  const missed: string[] = [];
  if (last?.date) {
    const from = [shiftDay(last.date, 1), shiftDay(current.date, -BACKFILL_DAYS)].sort()[1];
    for (let day = from; day < current.date; day = shiftDay(day, 1)) {
      backfilled.push(day);
      try {
        const list = await callNbs(
          opts,
          'GetExchangeRateByDate',
          { date: day.replaceAll('-', ''), exchangeRateListTypeID: listType },
          opts.fetchImpl,
        );
        if (list) lists.push(list);
      } catch {
        missed.push(day);
      }
    }
  }

  return system.transaction().execute(async (trx) => {
    // Another instance may have finished the day while this one was asking NBS.
    const claimed = await claimFeedDay(trx, JOB, today);
    if (claimed) return { status: claimed } as const;
    const rows = await upsertGlobalRates(trx, lists.flatMap(nbsRows));
    const done = current.date === today;
    if (done) {
      await trx
        .insertInto('job_runs')
        .values({ job: JOB, run_date: today, detail: `${rows} rates; list of ${current.date}` })
        .execute();
    }
    return { status: 'imported', listDate: current.date, rows, backfilled, missed, done } as const;
  });
}

/** The NBS import as a scheduled job: at start-up, then hourly until today's list is stored. */
export function nbsFeedJob(
  system: Kysely<DB>,
  log: FastifyBaseLogger,
  settings: NbsSettings,
  fetchImpl?: typeof fetch,
): Job {
  return {
    name: JOB,
    intervalMs: settings.intervalMs,
    runOnStart: true,
    run: () =>
      runNbsImport(system, { ...settings, fetchImpl })
        .then((outcome) =>
          'missed' in outcome && outcome.missed.length > 0
            ? log.warn({ job: JOB, ...outcome }, 'NBS rates: some earlier lists could not be read')
            : log.info({ job: JOB, ...outcome }, 'NBS rates'),
        )
        .catch((err: unknown) =>
          log.warn({ job: JOB, err: (err as Error).message }, 'NBS rate feed failed; retrying next hour'),
        ),
  };
}
