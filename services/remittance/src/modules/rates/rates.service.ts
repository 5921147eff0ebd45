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

export class RatesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /**
   * The table in memory: the rates routes are public and hot, and the rows change when the feed
   * job stores them. This instance drops its copy when it stores; another instance's copy is
   * at most RATES_CACHE_MS old. Concurrent misses share one read.
   */
  private cached: { rows: Map<string, RateRow>; loadedAt: number } | null = null;
  private loading: Promise<Map<string, RateRow>> | null = null;
  /** Bumped by every store, so a read that began before it is not kept. */
  private generation = 0;

  private async rows(): Promise<Map<string, RateRow>> {
    const cached = this.cached;
    if (cached && Date.now() - cached.loadedAt < RATES_CACHE_MS) return cached.rows;
    this.loading ??= (async () => {
      try {
        const loadedAt = Date.now();
        const generation = this.generation;
        const rows = new Map((await listRates(this.db)).map((r) => [r.currency, r]));
        if (generation === this.generation) this.cached = { rows, loadedAt };
        return rows;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private isStale(updatedAt: Date, now: Date): boolean {
    return now.getTime() - updatedAt.getTime() > this.config.rates.staleAfterMs;
  }

  /** Persisted rates only (never calls a provider). updatedAt is the oldest rate's time. */
  async all(now = new Date()) {
    const rows = (await this.rows()).values();
    const rates: Record<string, number> = {};
    let oldest: Date | null = null;
    for (const r of rows) {
      rates[r.currency] = Number(r.rate);
      if (!oldest || r.updated_at < oldest) oldest = r.updated_at;
    }
    return {
      baseCurrency: 'NOK' as const,
      rates,
      updatedAt: oldest?.toISOString() ?? null,
      stale: oldest === null || this.isStale(oldest, now),
    };
  }

  /**
   * GET /rates's whole response body as JSON text, built when the rows or the stale flag change
   * and reused otherwise: the route is public and the hottest in the service, and the figures
   * change only when the feed job stores them. Byte for byte what serialising `{ data: all() }`
   * with the route's response schema gives (the schema's key order; numbers as JSON writes them);
   * test/rates.test.ts compares them.
   */
  async allJson(now = new Date()): Promise<string> {
    const rows = await this.rows();
    const cached = this.body;
    const at = now.getTime();
    if (cached && cached.rows === rows && at >= cached.staleFrom === cached.stale) return cached.text;
    const data = await this.all(now);
    const oldest = data.updatedAt === null ? null : Date.parse(data.updatedAt);
    const text = JSON.stringify({
      data: { baseCurrency: data.baseCurrency, rates: data.rates, updatedAt: data.updatedAt, stale: data.stale },
    });
    this.body = {
      rows,
      text,
      stale: data.stale,
      staleFrom: oldest === null ? -Infinity : oldest + this.config.rates.staleAfterMs + 1,
    };
    return text;
  }

  private body: { rows: Map<string, RateRow>; text: string; stale: boolean; staleFrom: number } | null = null;

  async one(currency: string, now = new Date()) {
    const row = (await this.rows()).get(currency.toUpperCase());
    if (!row) throw notFound(`No rate for ${currency}`);
    return {
      baseCurrency: 'NOK' as const,
      currency: row.currency,
      rate: Number(row.rate),
      fee: REMITTANCE_FEE,
      updatedAt: row.updated_at.toISOString(),
      stale: this.isStale(row.updated_at, now),
    };
  }

  /** Fetches Norges Bank's feed and stores what it covers; returns the currencies updated. */
  async refreshFromFeed(now = new Date()): Promise<string[]> {
    const res = await this.fetchImpl(this.config.rates.feedUrl, {
      headers: { accept: 'application/vnd.sdmx.data+json, application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`Norges Bank feed answered ${res.status}`);
    return this.store(parseNorgesBankSdmx(await res.json()), now);
  }

  async store(feed: ReturnType<typeof parseNorgesBankSdmx>, now = new Date()): Promise<string[]> {
    const rates = nokRatesFromFeed(feed, SUPPORTED_TARGETS);
    await this.db.transaction().execute(async (trx) => {
      for (const [currency, { rate }] of rates) {
        await upsertRate(trx, {
          currency,
          rate: rate.toDecimalPlaces(8).toFixed(8),
          source: 'norges-bank',
          updatedAt: now,
        });
      }
    });
    this.generation++;
    this.cached = null;
    return [...rates.keys()].sort();
  }
}
