import { DCPI_CITATION, briefToRow, briefsTable } from './briefs.js';
import type { CallOptions, DchubClient } from './client.js';
import { answerItemFields, noteList } from './derive/items.js';
import { BRIEF_FROM_ALL, DCPI_FROM_SCORES, DCPI_SCORES_PATH } from './derive/pairs.js';
import { ENDPOINTS, endpointPath } from './endpoints.js';
import { ValidationError } from './errors.js';
import { readBrief } from './read/briefs.js';
import { readAiCapacity, readDcpiLeaderboard, readDcpiScore, readMarketList, readStats } from './read/markets.js';
import type { MarketBriefAllT, MarketBriefResponseT } from './schemas/briefs.js';
import {
  AiCapacityIndexQuery,
  DcpiLeaderboardQuery,
  DcpiScoreList,
  DcpiScoreListQuery,
  MarketCompare,
  MarketDetail,
  type AiCapacityIndexT,
  type DcpiLeaderboardT,
  type DcpiScoreListT,
  type DcpiScoreResponseT,
  type MarketCompareT,
  type MarketDetailT,
  type MarketListT,
  type PlatformStatsT,
} from './schemas/markets.js';
import { fieldTable, recordsTable, type Table } from './table.js';
import { parseParams } from './validate.js';

const slugArg = (name: string, v: unknown): string => {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  if (!s) throw new ValidationError(name, 'is required');
  if (s.length > 120) throw new ValidationError(name, 'must be at most 120 characters');
  return encodeURIComponent(s);
};

const fieldsArg = (v: string | readonly string[]): string[] => {
  const list = (typeof v === 'string' ? v.split(',') : [...v]).map((s) => String(s).trim()).filter(Boolean);
  const bad = list.find((s) => s.length > 120);
  if (bad !== undefined) throw new ValidationError('field', 'must be at most 120 characters');
  return list;
};

const query = (o: Record<string, string | number | boolean | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  return p;
};

/** GET /api/v1/stats: platform totals. */
export const platformStats = (client: DchubClient, opts: CallOptions = {}): Promise<PlatformStatsT> =>
  client.getJson(ENDPOINTS.stats.path, readStats, undefined, opts);

/** GET /api/v1/markets/list: scored markets of the caller's tier. */
export const listMarkets = (client: DchubClient, opts: CallOptions = {}): Promise<MarketListT> =>
  client.getJson(ENDPOINTS.marketList.path, readMarketList, undefined, opts);

/** The columns of the markets list, as every host shows them. */
export const MARKET_LIST_COLUMNS = [
  'slug',
  'id',
  'name',
  'state',
  'country',
  'facility_count',
  'total_power_mw',
  'pipeline_mw_total',
  'avg_kwh_price_usd',
] as const;

export const marketsTable = (m: MarketListT): Table =>
  recordsTable(m.data, MARKET_LIST_COLUMNS, {
    note: m.locked ? `${m.locked} more markets with a higher tier${m.upsell ? `: ${m.upsell}` : ''}` : undefined,
  });

/** GET /api/v1/markets/{name}: one market by slug or name. */
export const getMarket = (client: DchubClient, name: string, opts: CallOptions = {}): Promise<MarketDetailT> =>
  client.getJson(endpointPath(ENDPOINTS.market, { market_name: slugArg('name', name) }), MarketDetail, undefined, opts);

/** GET /api/v1/markets/compare: 2-4 markets side by side. */
export async function compareMarkets(
  client: DchubClient,
  markets: string | readonly string[],
  opts: CallOptions = {},
): Promise<MarketCompareT> {
  const list = (typeof markets === 'string' ? markets.split(',') : [...markets]).map((s) => s.trim()).filter(Boolean);
  if (list.length < 2 || list.length > 4)
    throw new ValidationError('markets', `give 2 to 4 markets, got ${list.length}`);
  return client.getJson(ENDPOINTS.marketCompare.path, MarketCompare, query({ markets: list.join(',') }), opts);
}

export const compareTable = (c: MarketCompareT): Table =>
  recordsTable(
    c.comparison.map((m) => ({
      market: m.market,
      display_name: m.display_name,
      ...m.metrics,
      top_providers: (m.top_providers as string[] | undefined)?.join(', '),
    })),
    ['market', 'display_name'],
  );

/** GET /api/v1/dcpi/scores/{slug}: power-readiness scores and verdict of one market. */
export const dcpiScore = (client: DchubClient, slug: string, opts: CallOptions = {}): Promise<DcpiScoreResponseT> =>
  client.getJson(
    endpointPath(ENDPOINTS.dcpiMarket, { market_slug: slugArg('slug', slug) }),
    readDcpiScore,
    undefined,
    opts,
  );

/**
 * Some fields of one market's DCPI (default: the verdict): served from a cached scores list that
 * carries them exactly (`fetchMeta(r).derivedFrom` names it), or — per the client's derive
 * setting — from the list fetched once for every market; otherwise the whole single answer.
 */
export async function dcpiScoreFields(
  client: DchubClient,
  slug: string,
  fields: string | readonly string[] = ['verdict'],
  opts: CallOptions = {},
): Promise<Partial<DcpiScoreResponseT>> {
  const path = endpointPath(ENDPOINTS.dcpiMarket, { market_slug: slugArg('slug', slug) });
  return answerItemFields(
    client,
    DCPI_FROM_SCORES,
    { path, schema: readDcpiScore },
    slug.trim(),
    fieldsArg(fields),
    opts,
  );
}

/** GET /api/v1/dcpi/scores: every market's DCPI (numbers masked below a paid plan). */
export async function dcpiScores(
  client: DchubClient,
  q: {
    sort?: string | null;
    verdict?: string | null;
    iso?: string | null;
    state?: string | null;
    limit?: number | string | null;
  } = {},
  opts: CallOptions = {},
): Promise<DcpiScoreListT> {
  const f = parseParams(DcpiScoreListQuery, q);
  const params = query({ sort: f.sort ?? f.sort_by, verdict: f.verdict, iso: f.iso, state: f.state, limit: f.limit });
  const r = await client.fetchJson(DCPI_SCORES_PATH, DcpiScoreList, params, opts);
  if (opts.cache !== false) await noteList(client, DCPI_FROM_SCORES, params.toString(), r);
  return r.data;
}

export const dcpiTable = (s: DcpiScoreResponseT): Table =>
  fieldTable(s, { citation: DCPI_CITATION, asOf: s.computed_at });

/** The columns of the DCPI scores list, coordinates included (the markets map and the quadrant draw from them). */
export const DCPI_SCORE_COLUMNS = [
  'market_slug', 'market_name', 'state', 'iso', 'latitude', 'longitude', 'verdict', 'composite_score', 'excess_power_score',
  'constraint_score', 'time_to_power_months', 'computed_at',
]; // prettier-ignore

/** Every market's DCPI row as a table, as of its latest computation. */
export const dcpiScoresTable = (l: DcpiScoreListT): Table =>
  recordsTable(l.scores, DCPI_SCORE_COLUMNS, {
    citation: DCPI_CITATION,
    asOf: l.scores.reduce<string | undefined>(
      (m, r) => (typeof r.computed_at === 'string' && (!m || r.computed_at > m) ? r.computed_at : m),
      undefined,
    ),
  });

/** GET /api/v1/dcpi/leaderboard. */
export async function dcpiLeaderboard(
  client: DchubClient,
  q: { verdict?: string | null; limit?: number | string | null } = {},
  opts: CallOptions = {},
): Promise<DcpiLeaderboardT> {
  const f = parseParams(DcpiLeaderboardQuery, q);
  return client.getJson(
    ENDPOINTS.dcpiLeaderboard.path,
    readDcpiLeaderboard,
    query({ verdict: f.verdict, limit: f.limit }),
    opts,
  );
}

export const leaderboardTable = (l: DcpiLeaderboardT): Table =>
  recordsTable(
    l.leaderboard,
    [
      'rank',
      'market_slug',
      'market_name',
      'iso',
      'state',
      'verdict',
      'composite_score',
      'excess_power_score',
      'constraint_score',
      'time_to_power_months',
      'computed_at',
    ],
    { citation: l.citation, asOf: l.as_of },
  );

/** GET /api/v1/ai-capacity-index (horizon 30, 60 or 90 days). */
export async function aiCapacityIndex(
  client: DchubClient,
  q: { horizon?: number | string | null; limit?: number | string | null } = {},
  opts: CallOptions = {},
): Promise<AiCapacityIndexT> {
  const f = parseParams(AiCapacityIndexQuery, q);
  return client.getJson(
    ENDPOINTS.aiCapacityIndex.path,
    readAiCapacity,
    query({ horizon: f.horizon, limit: f.limit }),
    opts,
  );
}

export const aiCapacityTable = (a: AiCapacityIndexT): Table =>
  recordsTable(
    a.markets.map((m) => ({
      ...m,
      deployable_mw: m.deployable_mw?.value ?? (m.deployable_mw as { band?: string } | undefined)?.band ?? null,
      ai_ready_mw: m.ai_ready_mw?.value ?? (m.ai_ready_mw as { band?: string } | undefined)?.band ?? null,
    })),
    [
      'rank',
      'market',
      'city',
      'state',
      'country',
      'ai_ready_mw',
      'deployable_mw',
      'hyperscale_ready',
      'facility_count',
      'operator_count',
      'total_installed_mw',
      'score',
    ],
    { asOf: (a as { computed_at?: string }).computed_at },
  );

/** GET /api/v1/market-brief/{slug}: one market brief (Pro sections are teasers below Pro). */
export const marketBrief = (client: DchubClient, slug: string, opts: CallOptions = {}): Promise<MarketBriefResponseT> =>
  client.getJson(endpointPath(ENDPOINTS.brief, { slug: slugArg('slug', slug) }), readBrief, undefined, opts);

/**
 * Some fields of one market brief (paths such as `hero.verdict`): served from a cached /all page
 * that holds the market, or — per the client's derive setting — from the first page fetched once;
 * otherwise the whole brief.
 */
export async function marketBriefFields(
  client: DchubClient,
  slug: string,
  fields: string | readonly string[],
  opts: CallOptions = {},
): Promise<Partial<MarketBriefResponseT>> {
  const path = endpointPath(ENDPOINTS.brief, { slug: slugArg('slug', slug) });
  return answerItemFields(client, BRIEF_FROM_ALL, { path, schema: readBrief }, slug.trim(), fieldsArg(fields), opts);
}

export const briefTable = (b: MarketBriefResponseT): Table =>
  fieldTable(b, { citation: DCPI_CITATION, asOf: b.hero.computed_at ?? undefined });

/** The briefs of an /all answer as the CSV-shaped table. */
export const briefsAllTable = (all: MarketBriefAllT): Table => {
  const t = briefsTable(all.briefs.map(briefToRow));
  return {
    ...t,
    asOf: all.as_of,
    note:
      all.total_available > all.count
        ? `${all.count} of ${all.total_available} briefs (page ${Math.floor(all.offset / all.limit) + 1})`
        : undefined,
  };
};
