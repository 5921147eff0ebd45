import { type Dec, D as Decimal } from '@app/shared/money';

/** One NOK-based observation: `nokPerUnit` NOK buys one unit of `currency`. */
export interface FeedRate {
  currency: string;
  nokPerUnit: Dec;
  date: string;
}

interface SdmxValue {
  id: string;
}
interface SdmxDimension {
  id: string;
  values: SdmxValue[];
}
/** The parts of an SDMX-JSON data message the parser reads; everything is optional until checked. */
interface SdmxSeries {
  attributes?: (number | null)[];
  observations?: Record<string, unknown>;
}
interface SdmxMessage {
  data?: {
    structure?: {
      dimensions?: { series?: SdmxDimension[]; observation?: SdmxDimension[] };
      attributes?: { series?: SdmxDimension[] };
    };
    dataSets?: { series?: Record<string, SdmxSeries> }[];
  };
}

/**
 * Parses Norges Bank's exchange rate feed in SDMX-JSON (data.norges-bank.no, dataflow EXR,
 * e.g. B.EUR+PLN.NOK.SP?format=sdmx-json&lastNObservations=1). Series keys index the
 * dimensions (FREQ:BASE_CUR:QUOTE_CUR:TENOR); UNIT_MULT says the quote is per 10^n units
 * (Norges Bank quotes some currencies per 100). The latest observation of each series wins.
 */
export function parseNorgesBankSdmx(json: unknown): FeedRate[] {
  const data = (json as SdmxMessage | null)?.data;
  const structure = data?.structure;
  const dataSet = data?.dataSets?.[0];
  if (!structure || !dataSet?.series) throw new Error('not an SDMX-JSON data message');
  const seriesDims: SdmxDimension[] = structure.dimensions?.series ?? [];
  const obsDims: SdmxDimension[] = structure.dimensions?.observation ?? [];
  const seriesAttrs: SdmxDimension[] = structure.attributes?.series ?? [];
  const baseIdx = seriesDims.findIndex((d) => d.id === 'BASE_CUR');
  const quoteIdx = seriesDims.findIndex((d) => d.id === 'QUOTE_CUR');
  const timeDim = obsDims.find((d) => d.id === 'TIME_PERIOD');
  const multIdx = seriesAttrs.findIndex((a) => a.id === 'UNIT_MULT');
  if (baseIdx < 0 || quoteIdx < 0 || !timeDim)
    throw new Error('SDMX structure lacks BASE_CUR, QUOTE_CUR or TIME_PERIOD');

  const out: FeedRate[] = [];
  for (const [key, series] of Object.entries(dataSet.series)) {
    const idx = key.split(':').map(Number);
    const base = seriesDims[baseIdx].values[idx[baseIdx]]?.id;
    const quote = seriesDims[quoteIdx].values[idx[quoteIdx]]?.id;
    if (!base || quote !== 'NOK') continue;
    const multAttr = multIdx >= 0 ? series.attributes?.[multIdx] : null;
    const multiplier =
      multAttr === null || multAttr === undefined ? 0 : Number(seriesAttrs[multIdx].values[multAttr]?.id ?? 0);
    let latest: { date: string; value: string } | null = null;
    for (const [obsKey, obs] of Object.entries(series.observations ?? {})) {
      const date = timeDim.values[Number(obsKey)]?.id;
      const value = Array.isArray(obs) ? obs[0] : null;
      if (!date || value === null || value === undefined || value === '' || value === 'NaN') continue;
      if (!latest || date > latest.date) latest = { date, value: String(value) };
    }
    if (!latest) continue;
    const quoted = new Decimal(latest.value);
    if (!quoted.isFinite() || quoted.lte(0)) continue;
    out.push({ currency: base, nokPerUnit: quoted.div(new Decimal(10).pow(multiplier)), date: latest.date });
  }
  return out;
}

/** BAM is pegged to the euro by law (currency board): 1 EUR = 1.95583 BAM. */
export const BAM_PER_EUR = new Decimal('1.95583');

/**
 * NOK -> target rates (units of target per 1 NOK) for the currencies we store. BAM comes from
 * EUR through the fixed peg; RSD is not in Norges Bank's feed and is left to other sources.
 */
export function nokRatesFromFeed(
  feed: FeedRate[],
  wanted: readonly string[],
): Map<string, { rate: Dec; date: string }> {
  const out = new Map<string, { rate: Dec; date: string }>();
  for (const r of feed) {
    if (wanted.includes(r.currency)) out.set(r.currency, { rate: new Decimal(1).div(r.nokPerUnit), date: r.date });
  }
  const eur = feed.find((r) => r.currency === 'EUR');
  if (eur && wanted.includes('BAM')) out.set('BAM', { rate: BAM_PER_EUR.div(eur.nokPerUnit), date: eur.date });
  return out;
}
