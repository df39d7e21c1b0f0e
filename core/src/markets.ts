import type { CallOptions, DchubClient } from './client.js';
import { answerItemFields } from './derive/items.js';
import { BRIEF_FROM_ALL, DCPI_FROM_SCORES } from './derive/pairs.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { requestOf, tableFor } from './resource.js';
import { byClient, byInput, fetchData } from './resource-call.js';
import type { MarketBriefResponseT } from './schemas/briefs.js';
import type { DcpiScoreResponseT, MarketCompareT, MarketDetailT } from './schemas/markets.js';
import type { InputOf } from './resource.js';

export { DCPI_SCORE_COLUMNS, LEADERBOARD_COLUMNS, MARKET_LIST_COLUMNS } from './resources/markets.js';

const fieldsArg = (v: string | readonly string[]): string[] => {
  const list = (typeof v === 'string' ? v.split(',') : [...v]).map((s) => String(s).trim()).filter(Boolean);
  const bad = list.find((s) => s.length > 120);
  if (bad !== undefined) throw new ValidationError('field', 'must be at most 120 characters');
  return list;
};

/** GET /api/v1/stats: platform totals. */
export const platformStats = /* @__PURE__ */ byClient(ENDPOINTS.stats);

/** GET /api/v1/markets/list: scored markets of the caller's tier. */
export const listMarkets = /* @__PURE__ */ byClient(ENDPOINTS.marketList);

export const marketsTable = /* @__PURE__ */ tableFor(ENDPOINTS.marketList);

/** GET /api/v1/markets/{name}: one market by slug or name. */
export const getMarket = (client: DchubClient, name: string, opts: CallOptions = {}): Promise<MarketDetailT> =>
  fetchData(client, ENDPOINTS.market, { market_name: name }, opts);

/** GET /api/v1/markets/compare: 2-4 markets side by side. */
export const compareMarkets = (
  client: DchubClient,
  markets: string | readonly string[],
  opts: CallOptions = {},
): Promise<MarketCompareT> =>
  fetchData(
    client,
    ENDPOINTS.marketCompare,
    { markets: markets as InputOf<typeof ENDPOINTS.marketCompare>['markets'] },
    opts,
  );

export const compareTable = /* @__PURE__ */ tableFor(ENDPOINTS.marketCompare);

/** GET /api/v1/dcpi/scores/{slug}: power-readiness scores and verdict of one market. */
export const dcpiScore = (client: DchubClient, slug: string, opts: CallOptions = {}): Promise<DcpiScoreResponseT> =>
  fetchData(client, ENDPOINTS.dcpiMarket, { market_slug: slug }, opts);

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
  const { path } = requestOf(ENDPOINTS.dcpiMarket, { market_slug: slug });
  const item = { path, schema: ENDPOINTS.dcpiMarket.reader };
  return answerItemFields(client, DCPI_FROM_SCORES, item, slug.trim(), fieldsArg(fields), opts);
}

/** GET /api/v1/dcpi/scores: every market's DCPI (numbers masked below a paid plan). */
export const dcpiScores = /* @__PURE__ */ byInput(ENDPOINTS.dcpiScores);

export const dcpiTable = /* @__PURE__ */ tableFor(ENDPOINTS.dcpiMarket);

/** Every market's DCPI row as a table, as of its latest computation. */
export const dcpiScoresTable = /* @__PURE__ */ tableFor(ENDPOINTS.dcpiScores);

/** GET /api/v1/dcpi/leaderboard. */
export const dcpiLeaderboard = /* @__PURE__ */ byInput(ENDPOINTS.dcpiLeaderboard);

export const leaderboardTable = /* @__PURE__ */ tableFor(ENDPOINTS.dcpiLeaderboard);

/** GET /api/v1/ai-capacity-index (horizon 30, 60 or 90 days). */
export const aiCapacityIndex = /* @__PURE__ */ byInput(ENDPOINTS.aiCapacityIndex);

export const aiCapacityTable = /* @__PURE__ */ tableFor(ENDPOINTS.aiCapacityIndex);

/** GET /api/v1/market-brief/{slug}: one market brief (Pro sections are teasers below Pro). */
export const marketBrief = (client: DchubClient, slug: string, opts: CallOptions = {}): Promise<MarketBriefResponseT> =>
  fetchData(client, ENDPOINTS.brief, { slug }, opts);

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
  const { path } = requestOf(ENDPOINTS.brief, { slug });
  const item = { path, schema: ENDPOINTS.brief.reader };
  return answerItemFields(client, BRIEF_FROM_ALL, item, slug.trim(), fieldsArg(fields), opts);
}

export const briefTable = /* @__PURE__ */ tableFor(ENDPOINTS.brief);

/** The briefs of an /all answer as the CSV-shaped table. */
export const briefsAllTable = /* @__PURE__ */ tableFor(ENDPOINTS.briefsAll);
