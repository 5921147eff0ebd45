import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/types.js';
import { notFound } from '../../errors.js';
import { nokRatesFromFeed, parseNorgesBankSdmx } from './norges-bank.js';
import { listRates, upsertRate } from './rates.repository.js';

export const SUPPORTED_TARGETS = ['RSD', 'BAM', 'PLN', 'PKR', 'TRY', 'EUR'] as const;
export const REMITTANCE_FEE = 0.005;

/** How long an instance serves its copy of the rates before reading the table again. */
export const RATES_CACHE_MS = 5_000;

type RateRow = Awaited<ReturnType<typeof listRates>>[number];

/** What the rates service reads and stores with; `fetch` is the feed fetcher (tests pass a recorded response). */
export interface RatesDeps {
  db: Kysely<DB>;
  config: Config;
  fetch?: typeof fetch;
}

export type RatesService = ReturnType<typeof createRatesService>;

/**
 * The rates, with the table kept in memory: the rates routes are public and hot, and the rows change
 * when the feed job stores them. This instance drops its copy when it stores; another instance's copy
 * is at most RATES_CACHE_MS old. Concurrent misses share one read.
 */
export function createRatesService(deps: RatesDeps) {
  const { db, config } = deps;
  const fetchImpl = deps.fetch ?? fetch;
  let cached: { rows: Map<string, RateRow>; loadedAt: number } | null = null;
  let loading: Promise<Map<string, RateRow>> | null = null;
  /** Bumped by every store, so a read that began before it is not kept. */
  let generation = 0;
  /** allJson's last body and what it was built from. */
  let body: { rows: Map<string, RateRow>; text: string; stale: boolean; staleFrom: number } | null = null;

  async function rows(): Promise<Map<string, RateRow>> {
    const kept = cached;
    if (kept && Date.now() - kept.loadedAt < RATES_CACHE_MS) return kept.rows;
    loading ??= (async () => {
      try {
        const loadedAt = Date.now();
        const started = generation;
        const read = new Map((await listRates(db)).map((r) => [r.currency, r]));
        if (started === generation) cached = { rows: read, loadedAt };
        return read;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  const isStale = (updatedAt: Date, now: Date): boolean =>
    now.getTime() - updatedAt.getTime() > config.rates.staleAfterMs;

  /** Persisted rates only (never calls a provider). updatedAt is the oldest rate's time. */
  async function all(now = new Date()) {
    const rates: Record<string, number> = {};
    let oldest: Date | null = null;
    for (const r of (await rows()).values()) {
      rates[r.currency] = Number(r.rate);
      if (!oldest || r.updated_at < oldest) oldest = r.updated_at;
    }
    return {
      baseCurrency: 'NOK' as const,
      rates,
      updatedAt: oldest?.toISOString() ?? null,
      stale: oldest === null || isStale(oldest, now),
    };
  }

  /**
   * GET /rates's whole response body as JSON text, built when the rows or the stale flag change
   * and reused otherwise: the route is public and the hottest in the service, and the figures
   * change only when the feed job stores them. Byte for byte what serialising `{ data: all() }`
   * with the route's response schema gives (the schema's key order; numbers as JSON writes them);
   * test/rates.test.ts compares them.
   */
  async function allJson(now = new Date()): Promise<string> {
    const current = await rows();
    const kept = body;
    const at = now.getTime();
    if (kept && kept.rows === current && at >= kept.staleFrom === kept.stale) return kept.text;
    const data = await all(now);
    const oldest = data.updatedAt === null ? null : Date.parse(data.updatedAt);
    const text = JSON.stringify({
      data: { baseCurrency: data.baseCurrency, rates: data.rates, updatedAt: data.updatedAt, stale: data.stale },
    });
    body = {
      rows: current,
      text,
      stale: data.stale,
      staleFrom: oldest === null ? -Infinity : oldest + config.rates.staleAfterMs + 1,
    };
    return text;
  }

  async function one(currency: string, now = new Date()) {
    const row = (await rows()).get(currency.toUpperCase());
    if (!row) throw notFound(`No rate for ${currency}`);
    return {
      baseCurrency: 'NOK' as const,
      currency: row.currency,
      rate: Number(row.rate),
      fee: REMITTANCE_FEE,
      updatedAt: row.updated_at.toISOString(),
      stale: isStale(row.updated_at, now),
    };
  }

  async function store(feed: ReturnType<typeof parseNorgesBankSdmx>, now = new Date()): Promise<string[]> {
    const rates = nokRatesFromFeed(feed, SUPPORTED_TARGETS);
    await db.transaction().execute(async (trx) => {
      for (const [currency, { rate }] of rates) {
        await upsertRate(trx, {
          currency,
          rate: rate.toDecimalPlaces(8).toFixed(8),
          source: 'norges-bank',
          updatedAt: now,
        });
      }
    });
    generation++;
    cached = null;
    return [...rates.keys()].sort();
  }

  /** Fetches Norges Bank's feed and stores what it covers; returns the currencies updated. */
  async function refreshFromFeed(now = new Date()): Promise<string[]> {
    const res = await fetchImpl(config.rates.feedUrl, {
      headers: { accept: 'application/vnd.sdmx.data+json, application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`Norges Bank feed answered ${res.status}`);
    return store(parseNorgesBankSdmx(await res.json()), now);
  }

  return { all, allJson, one, store, refreshFromFeed };
}
