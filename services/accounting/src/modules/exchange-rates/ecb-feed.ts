import type { Job } from '@app/shared/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { organizationToday } from '../../lib/calendar.js';
import { isKnownCurrency } from '../currencies/currencies.js';
import { upsertGlobalRates } from './exchange-rates.repository.js';
import { claimFeedDay } from './feed-day.js';

/**
 * The ECB euro foreign exchange reference rates (A6): a daily XML file of "1 EUR = rate X".
 * The 90-day file is the default so that a missed day (an instance down, the feed offline)
 * is filled in by the next run.
 */
export const ECB_DEFAULT_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml';
const JOB = 'ecb-rates';
/** Fixed by law (see the books migration): a feed never overrides them. */
const FIXED = new Set(['BAM', 'HRK']);

export interface EcbDay {
  date: string;
  rates: Array<{ currency: string; rate: string }>;
}

const ATTR = /([A-Za-z_:][\w:.-]*)\s*=\s*(['"])(.*?)\2/g;

/** Parses the ECB daily or historical reference-rate XML; throws when it holds no rates. */
export function parseEcbXml(xml: string): EcbDay[] {
  if (!/<(?:\w+:)?Envelope\b/.test(xml)) throw new Error('not an ECB reference-rate document');
  const days: EcbDay[] = [];
  let current: EcbDay | null = null;
  for (const m of xml.matchAll(/<Cube\b([^>]*?)\/?>/g)) {
    const attrs = Object.fromEntries([...m[1].matchAll(ATTR)].map((a) => [a[1], a[3]]));
    if (attrs.time !== undefined) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(attrs.time)) throw new Error(`bad date in ECB feed: ${attrs.time}`);
      current = { date: attrs.time, rates: [] };
      days.push(current);
    } else if (attrs.currency !== undefined && attrs.rate !== undefined) {
      if (!current) throw new Error('ECB feed: rate outside a dated block');
      if (!/^[A-Z]{3}$/.test(attrs.currency) || !/^\d+(\.\d+)?$/.test(attrs.rate) || Number(attrs.rate) <= 0) {
        throw new Error(`bad rate in ECB feed: ${attrs.currency}=${attrs.rate}`);
      }
      current.rates.push({ currency: attrs.currency, rate: attrs.rate });
    }
  }
  const withRates = days.filter((d) => d.rates.length > 0);
  if (withRates.length === 0) throw new Error('ECB feed holds no rates');
  return withRates;
}

/** Stores the rates of the currencies the service knows as global EUR->X rows; returns rows written. */
export async function importEcbDays(db: Kysely<DB>, days: EcbDay[]): Promise<number> {
  const rows = days.flatMap((d) =>
    d.rates
      .filter((r) => isKnownCurrency(r.currency) && r.currency !== 'EUR' && !FIXED.has(r.currency))
      .map((r) => ({
        baseCurrency: 'EUR',
        targetCurrency: r.currency,
        rate: r.rate,
        effectiveDate: d.date,
        source: 'ecb' as const,
      })),
  );
  return upsertGlobalRates(db, rows);
}

export interface FeedSettings {
  enabled: boolean;
  url: string;
  intervalMs: number;
}

/** EXCHANGE_RATE_FEED=on enables the daily import; EXCHANGE_RATE_FEED_URL overrides the source. */
export function feedSettings(config: { enabled: boolean; url: string | null }): FeedSettings {
  return {
    enabled: config.enabled,
    url: config.url || ECB_DEFAULT_URL,
    intervalMs: 60 * 60 * 1000,
  };
}

export type FeedOutcome =
  | { status: 'imported'; rows: number; days: number; latest: string; done: boolean }
  | { status: 'already-done' }
  | { status: 'busy' };

async function fetchFeed(url: string, fetchImpl: typeof fetch): Promise<string> {
  const res = await fetchImpl(url, {
    signal: AbortSignal.timeout(15_000),
    headers: { accept: 'application/xml, text/xml' },
  });
  if (!res.ok) throw new Error(`ECB feed answered ${res.status}`);
  return res.text();
}

/**
 * Imports today's feed once across every instance (G12): the day is claimed under a
 * transaction-scoped advisory lock and recorded in job_runs, so a second instance either finds
 * the lock taken (busy) or the day done. The day counts as done only once the feed holds today's
 * rates (Central European time): the ECB publishes them at about 16:00, so a run in the morning
 * stores what the file holds and the hourly runs ask again until the afternoon's rates are in (on a
 * day without rates, a weekend or a TARGET holiday, they ask all day: a small file, once an hour).
 * A failure records nothing; the next tick retries. Runs as the system role: the rows it writes
 * belong to no organization, so it opens its own transaction on db.system instead of a
 * TenantScope (see db/tenant-scope.ts).
 */
export async function runDailyImport(
  system: Kysely<DB>,
  opts: { url: string; fetchImpl?: typeof fetch; today?: string },
): Promise<FeedOutcome> {
  const today = opts.today ?? organizationToday('RS');
  return system.transaction().execute(async (trx) => {
    const claimed = await claimFeedDay(trx, JOB, today);
    if (claimed) return { status: claimed } as const;
    const days = parseEcbXml(await fetchFeed(opts.url, opts.fetchImpl ?? fetch));
    const rows = await importEcbDays(trx, days);
    const latest = days.map((d) => d.date).sort()[days.length - 1];
    const complete = latest >= today;
    if (complete) {
      await trx
        .insertInto('job_runs')
        .values({ job: JOB, run_date: today, detail: `${rows} rates from ${days.length} days` })
        .execute();
    }
    return { status: 'imported', rows, days: days.length, latest, done: complete } as const;
  });
}

/**
 * The daily import as a scheduled job (buildApp adds it when the feed is on): a first attempt at
 * start-up, then a check every hour. An offline feed only logs a warning, never breaks start-up.
 */
export function exchangeRateFeedJob(
  system: Kysely<DB>,
  log: FastifyBaseLogger,
  settings: FeedSettings,
  fetchImpl?: typeof fetch,
): Job {
  return {
    name: JOB,
    intervalMs: settings.intervalMs,
    runOnStart: true,
    run: () =>
      runDailyImport(system, { url: settings.url, fetchImpl })
        .then((outcome) => log.info({ job: JOB, ...outcome }, 'exchange-rate feed'))
        .catch((err: unknown) =>
          log.warn({ job: JOB, err: (err as Error).message }, 'exchange-rate feed failed; retrying next hour'),
        ),
  };
}
