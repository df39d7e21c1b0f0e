/* global CustomFunctions */
import {
  DCPI_CITATION,
  NotCachedError,
  ValidationError,
  aiCapacityIndex,
  aiCapacityTable,
  analyzeParcel,
  briefTable,
  briefsAllTable,
  compareMarkets,
  compareTable,
  dcpiScore,
  fetchBriefsAll,
  fieldTable,
  getMarket,
  listMarkets,
  marketBrief,
  marketsTable,
  parcelTable,
  platformStats,
  queueTable,
  rankSites,
  rankedTable,
  readPath,
  refineQueue,
  runChain,
  siteScore,
  type Cell,
  type Table,
} from '@dchub/core';
import { constraintsArg, objectivesArg, optional, rangeRecords, requiredText } from './args';
import { answerNotes, callOptions, headerMode, serviceClient, toCellError } from './service';
import { spill } from './spill';
import { toolCall } from './tool';
import { dealsCall, facilitiesCall, fuelMixCall, newsCall, pipelineCall, priceCall, quotaLeft } from './feeds';

/**
 * Scoring mode of RANK.
 * @customenum {string}
 */
enum RankMode {
  /** Min-max within the candidates (default) */
  relative = "relative",
  /** Fixed 0-100 scale, stable across runs */
  absolute = "absolute",
  /** Percentile against the viable-site population */
  percentile = "percentile",
}

/**
 * Header rows of a spilled table.
 * @customenum {number}
 */
enum HeaderRows {
  /** No header row */
  none = 0,
  /** A header row (default) */
  header = 1,
  /** A source/as-of row and a header row */
  source = 2,
}

/**
 * Deal types.
 * @customenum {string}
 */
enum DealType {
  acquisition = "acquisition",
  investment = "investment",
  joint_venture = "joint_venture",
  lease = "lease",
  development = "development",
  merger = "merger",
}

/**
 * Grid operators with a live fuel mix.
 * @customenum {string}
 */
enum GridIso {
  ERCOT = "ERCOT",
  PJM = "PJM",
  CAISO = "CAISO",
  MISO = "MISO",
  SPP = "SPP",
  NYISO = "NYISO",
  ISONE = "ISONE",
}


/** Picks `field` (a dotted path) from an answer, or gives #VALUE! naming the field. */
function pick(obj: unknown, field: unknown): Cell {
  const path = requiredText('field', field);
  const v = readPath(obj, path);
  if (v === undefined) throw new ValidationError('field', `no member ${JSON.stringify(path)} in this answer`);
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return v as Cell;
}

/** A spilled table or a single field, with the answer's notes (stale cache, preview). */
const tableOr = (data: unknown, field: unknown, table: () => Table): Cell | Cell[][] =>
  optional(field) === undefined ? spill(table(), 1, answerNotes(data)) : pick(data, field);

/**
 * Overall site score (0-100) of a location, or any member of the site-score answer.
 * @customfunction SITESCORE
 * @helpurl https://dchub.cloud/docs/excel#sitescore
 * @param lat Latitude in decimal degrees, -90 to 90.
 * @param lon Longitude in decimal degrees, -180 to 180.
 * @param [capacity_mw] Target load in MW.
 * @param [field] Member to return instead of the overall score, e.g. "fiber.connectivity_score" or "nearby.substations_50km".
 * @param invocation Invocation (set by Excel).
 * @returns The overall score, or the member named by field.
 */
export async function sitescore(lat: any, lon: any, capacity_mw: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    const s = await siteScore(await serviceClient(), { lat, lon, capacity_mw }, callOptions(invocation));
    return optional(field) === undefined ? s.overall_score : pick(s, field);
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Interconnection-queue projects that pass every filter, as a table.
 * @customfunction QUEUE
 * @helpurl https://dchub.cloud/docs/excel#queue
 * @param iso Grid operators, comma-separated: PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE. Blank for all.
 * @param [min_mw] Minimum project capacity in MW.
 * @param [max_ttp_months] Keep operators whose average time to power is at or under this many months.
 * @param [fuel_type] Fuel label text to match, comma-separated (e.g. "gas,nuclear").
 * @param [status] "active" (default), "all", or text to match in the status.
 * @param [baseload_only] TRUE keeps firm fuels only (no wind, solar, storage).
 * @param [max_fiber_km] Maximum km to the nearest long-haul fiber endpoint.
 * @param [geocoded_only] TRUE keeps projects with coordinates.
 * @param [limit] Maximum rows, 1-1000 (default 200).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns The surviving projects, one per row.
 */
export async function queue(
  iso: any,
  min_mw: any,
  max_ttp_months: any,
  fuel_type: any,
  status: any,
  baseload_only: any,
  max_fiber_km: any,
  geocoded_only: any,
  limit: any,
  headers: HeaderRows,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  try {
    const mode = headerMode(headers);
    const r = await refineQueue(
      await serviceClient(),
      { iso, min_mw, max_ttp_months, fuel_type, status, baseload_only, max_fiber_km, geocoded_only, limit },
      callOptions(invocation),
    );
    return spill(queueTable(r), mode, answerNotes(r), 'No queued projects match these filters');
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Ranks candidate sites by weighted objectives.
 * @customfunction RANK
 * @helpurl https://dchub.cloud/docs/excel#rank
 * @param candidates Range with a header row: id, lat, lon and metric columns.
 * @param objectives Two-column range (field, weight) or "field:weight,..." text; + maximizes, - minimizes.
 * @param [constraints] Range (field, min, max) or "field:min:max,..." text; a candidate missing a field fails.
 * @param [mode] relative (default), absolute or percentile.
 * @param [top_k] How many to return (default 3).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns The ranked candidates.
 */
export async function rank(candidates: any[][], objectives: any, constraints: any, mode: RankMode, top_k: any, headers: HeaderRows, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const h = headerMode(headers);
    const m = optional(mode);
    if (m !== undefined && !['relative', 'absolute', 'percentile'].includes(String(m))) throw new ValidationError('mode', `must be relative, absolute or percentile, got ${JSON.stringify(m)}`);
    const recs = rangeRecords('candidates', candidates).map((r) => ({ ...r, lng: r.lng ?? r.lon }));
    const obj = objectivesArg(objectives);
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('RANK');
    const r = await rankSites(await serviceClient(), { candidates: recs, objectives: obj, constraints: constraintsArg(constraints), mode: m as RankMode | undefined, top_k: optional(top_k) }, opts);
    return spill(rankedTable(r, Object.keys(obj)), h, answerNotes(r));
  } catch (err) {
    throw err instanceof CustomFunctions.Error ? err : toCellError(err);
  }
}

/**
 * Queue → site score → ranking in one formula, within the calls left today.
 * @customfunction CHAIN
 * @helpurl https://dchub.cloud/docs/excel#chain
 * @param iso Grid operators, comma-separated (blank for all).
 * @param min_mw Minimum project capacity in MW.
 * @param max_ttp_months Maximum average time to power, months.
 * @param objectives Two-column range or "field:weight,..." text, e.g. "overall_score:1,fiber_km:-1".
 * @param [top_k] How many ranked sites to return (default 3).
 * @param invocation Invocation (set by Excel).
 * @returns The ranked sites with queue fields, site scores and normalized objectives.
 */
export async function chain(iso: any, min_mw: any, max_ttp_months: any, objectives: any, top_k: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const obj = objectivesArg(objectives);
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('CHAIN');
    const r = await runChain(await serviceClient(), { filters: { iso, min_mw, max_ttp_months, geocoded_only: true }, objectives: obj, top_k: optional(top_k), maxSites: 10 });
    return spill(r.table, 1, [`${r.scored} sites scored with ${r.callsSpent} calls`]);
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Market briefs of your tier, one row per market.
 * @customfunction BRIEFS
 * @helpurl https://dchub.cloud/docs/excel#briefs
 * @param [limit] Page size (default 50).
 * @param [offset] Briefs to skip (default 0).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns One row per market: verdict, scores, MW, operators, dates.
 */
export async function briefs(limit: any, offset: any, headers: HeaderRows, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const h = headerMode(headers);
    const all = await fetchBriefsAll(await serviceClient(), { limit: optional(limit), offset: optional(offset) }, callOptions(invocation));
    return spill(briefsAllTable(all), h, answerNotes(all));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * One market brief: every member as rows, or one member.
 * @customfunction BRIEF
 * @helpurl https://dchub.cloud/docs/excel#brief
 * @param slug Market slug or alias (e.g. "northern-virginia", "nova", "dfw").
 * @param [field] Member to return, e.g. "hero.verdict" or "kpis.operational_mw".
 * @param invocation Invocation (set by Excel).
 * @returns The brief as field/value rows, or the member named by field.
 */
export async function brief(slug: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    const b = await marketBrief(await serviceClient(), requiredText('slug', slug), callOptions(invocation));
    return tableOr(b, field, () => briefTable(b));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Power-readiness index (DCPI) of a market: the verdict, or any score.
 * @customfunction DCPI
 * @helpurl https://dchub.cloud/docs/excel#dcpi
 * @param slug Market slug or alias.
 * @param [field] Score to return instead of the verdict: composite_score, excess_power_score, constraint_score, time_to_power_months, ...
 * @param invocation Invocation (set by Excel).
 * @returns BUILD, CAUTION or AVOID, or the score named by field.
 */
export async function dcpi(slug: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    const s = await dcpiScore(await serviceClient(), requiredText('slug', slug), callOptions(invocation));
    return pick(s, optional(field) ?? 'verdict');
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Markets ranked by AI-ready deployable MW.
 * @customfunction AICAPACITY
 * @helpurl https://dchub.cloud/docs/excel#aicapacity
 * @param [horizon] Days ahead: 30, 60 or 90 (default 90).
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export async function aicapacity(horizon: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const a = await aiCapacityIndex(await serviceClient(), { horizon }, callOptions(invocation));
    return spill(aiCapacityTable(a), 1, answerNotes(a));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Scored markets of your tier with their summary statistics.
 * @customfunction MARKETS
 * @helpurl https://dchub.cloud/docs/excel#markets
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export async function markets(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const m = await listMarkets(await serviceClient(), callOptions(invocation));
    return spill(marketsTable(m), 1, answerNotes(m));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * One market's details: every member as rows, or one member.
 * @customfunction MARKET
 * @helpurl https://dchub.cloud/docs/excel#market
 * @param name Market slug or name (e.g. "Northern Virginia").
 * @param [field] Member to return, e.g. "stats.facility_count".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field.
 */
export async function market(name: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    const m = await getMarket(await serviceClient(), requiredText('name', name), callOptions(invocation));
    return tableOr(m, field, () => fieldTable(m));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Two to four markets side by side.
 * @customfunction COMPARE
 * @helpurl https://dchub.cloud/docs/excel#compare
 * @param markets Markets, comma-separated, or a range of names.
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export async function compare(markets: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const list = Array.isArray(markets) ? (markets as unknown[][]).flat().filter((v) => optional(v) !== undefined).map(String) : requiredText('markets', markets);
    const c = await compareMarkets(await serviceClient(), list, callOptions(invocation));
    return spill(compareTable(c), 1, answerNotes(c));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Facilities matching a text search.
 * @customfunction FACILITIES
 * @helpurl https://dchub.cloud/docs/excel#facilities
 * @param query City, operator, market or name text.
 * @param [country] ISO 3166-1 alpha-2 country code, e.g. "US".
 * @param [limit] Maximum rows, 1-100 (default 25).
 * @param invocation Invocation (set by Excel).
 * @returns One row per facility.
 */
export async function facilities(query: any, country: any, limit: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    return await facilitiesCall(query, country, limit, callOptions(invocation));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Recent M&A and investment transactions.
 * @customfunction DEALS
 * @helpurl https://dchub.cloud/docs/excel#deals
 * @param [limit] Maximum rows (default 20).
 * @param [deal_type] acquisition, investment, joint_venture, lease, development or merger.
 * @param invocation Invocation (set by Excel).
 * @returns One row per deal.
 */
export async function deals(limit: any, deal_type: DealType, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    return await dealsCall(limit, deal_type, callOptions(invocation));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Facilities under construction or announced.
 * @customfunction PIPELINE
 * @helpurl https://dchub.cloud/docs/excel#pipeline
 * @param invocation Invocation (set by Excel).
 * @returns One row per project.
 */
export async function pipeline(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    return await pipelineCall(callOptions(invocation));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Industrial retail electricity price of a US state, in cents per kWh.
 * @customfunction PRICE
 * @helpurl https://dchub.cloud/docs/excel#price
 * @param state US state code or name.
 * @param invocation Invocation (set by Excel).
 * @returns Cents per kWh.
 */
export async function price(state: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    return await priceCall(requiredText('state', state), callOptions(invocation));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Parcel analysis of a GeoJSON polygon: acreage, representative point, site hand-off.
 * @customfunction PARCEL
 * @helpurl https://dchub.cloud/docs/excel#parcel
 * @param geojson GeoJSON Polygon or MultiPolygon geometry, as text.
 * @param [capacity_mw] Target load in MW for the hand-off.
 * @param [field] Member to return, e.g. "total_acres" or "representative_point.lat".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field.
 */
export async function parcel(geojson: any, capacity_mw: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    let geometry: unknown;
    try {
      geometry = JSON.parse(requiredText('geojson', geojson));
    } catch (e) {
      if (e instanceof ValidationError) throw e;
      throw new ValidationError('geojson', 'is not valid JSON');
    }
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('PARCEL');
    const p = await analyzeParcel(await serviceClient(), (geometry as { geometry?: unknown })?.geometry ?? geometry, optional(capacity_mw), opts);
    return tableOr(p, field, () => parcelTable(p));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Platform totals: facilities, countries, providers, markets, articles, transactions, MW.
 * @customfunction STATS
 * @helpurl https://dchub.cloud/docs/excel#stats
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows.
 */
export async function stats(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  try {
    const s = await platformStats(await serviceClient(), callOptions(invocation));
    const { data: _d, ...top } = s;
    return spill(fieldTable(top), 1, answerNotes(s));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Latest industry news, refreshed every 5 minutes.
 * @customfunction NEWS
 * @helpurl https://dchub.cloud/docs/excel#news
 * @param [limit] Articles (default 10).
 * @param invocation Invocation (set by Excel).
 * @returns One row per article.
 */
export function news(limit: any, invocation: CustomFunctions.StreamingInvocation<any[][]>): void {
  stream(invocation, 5 * 60_000, (refresh) => newsCall(limit, { refresh }));
}

/**
 * Live fuel mix of a grid operator, refreshed every 5 minutes.
 * @customfunction FUELMIX
 * @helpurl https://dchub.cloud/docs/excel#fuelmix
 * @param iso ERCOT, PJM, CAISO, MISO, SPP, NYISO or ISONE.
 * @param invocation Invocation (set by Excel).
 * @returns One row per fuel: source, MW, percentage.
 */
export function fuelmix(iso: GridIso, invocation: CustomFunctions.StreamingInvocation<any[][]>): void {
  stream(invocation, 5 * 60_000, (refresh) => fuelMixCall(iso, { refresh }));
}

/** Streaming: first answer at once, then every `everyMs`; errors go through setResult. */
function stream(invocation: CustomFunctions.StreamingInvocation<any[][]>, everyMs: number, load: (refresh: boolean) => Promise<any[][]>): void {
  let stopped = false;
  const tick = async (refresh: boolean) => {
    try {
      const value = await load(refresh);
      if (!stopped) invocation.setResult(value);
    } catch (err) {
      if (!stopped) invocation.setResult(toCellError(err) as unknown as any[][]);
    }
  };
  void tick(false);
  const timer = setInterval(() => void tick(true), everyMs);
  invocation.onCanceled = () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Calls any of the 29 DC Hub MCP tools.
 * @customfunction TOOL
 * @helpurl https://dchub.cloud/docs/excel#tool
 * @param name Tool name, e.g. "get_market_dcpi_rank".
 * @param [args] Two-column range (name, value) or "k=v;k=v" text.
 * @param invocation Invocation (set by Excel).
 * @returns The tool's answer as a table, or its text.
 */
export async function tool(name: any, args: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  try {
    return await toolCall(requiredText('name', name), args, callOptions(invocation));
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Calls left today under your key (or keyless allowance); no call is spent.
 * @customfunction QUOTA
 * @helpurl https://dchub.cloud/docs/excel#quota
 * @returns Calls left today.
 */
export async function quota(): Promise<number> {
  try {
    return await quotaLeft();
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * The CC-BY-4.0 attribution line to cite DC Hub data.
 * @customfunction CITATION
 * @helpurl https://dchub.cloud/docs/excel#citation
 * @returns The attribution text.
 */
export function citation(): string {
  return `${DCPI_CITATION}. Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud".`;
}
