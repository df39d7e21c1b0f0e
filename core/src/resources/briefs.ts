import { z } from 'zod';
import { readBrief, readBriefsAll, readBriefsDiff } from '../read/briefs.js';
import { pathRequest, resource, searchParamsOf, type TableShape } from '../resource.js';
import {
  BRIEF_CSV_COLUMNS,
  BriefCsvRow,
  BriefDiffQuery,
  BriefPageQuery,
  MarketBriefAll,
  MarketBriefDiff,
  MarketBriefResponse,
  type BriefCsvRowT,
  type MarketBriefAllT,
  type MarketBriefDiffT,
  type MarketBriefT,
} from '../schemas/briefs.js';
import { segment } from '../schemas/params.js';
import { latestTime } from '../table.js';
import { parseParams } from '../validate.js';
import { DCPI_CITATION } from './markets.js';
import { slugArg } from './segments.js';

/** A brief (JSON) as a row of the brief CSV, so JSON and CSV tables share one shape. */
export function briefToRow(b: MarketBriefT): BriefCsvRowT {
  return BriefCsvRow.parse({
    market_slug: b.slug,
    market_name: b.hero.name,
    verdict: b.hero.verdict,
    composite_score: b.hero.composite_score,
    excess_power: b.hero.excess_power,
    constraint_score: b.hero.constraint_score,
    queue_wait_months: b.hero.queue_wait_months ?? b.kpis.queue_months,
    iso: b.hero.iso,
    state: b.hero.state ?? '',
    operational_mw: b.kpis.operational_mw,
    pipeline_mw: b.kpis.pipeline_mw,
    facility_count: b.kpis.facility_count,
    vacancy_pct: b.kpis.vacancy_pct,
    lease_rate: b.kpis.lease_rate,
    top_operator: b.kpis.top_operator?.name ?? '',
    outlook_word_count: b.outlook.word_count,
    live_as_of: b.live_as_of.iso ?? '',
    computed_at: b.hero.computed_at ?? '',
  });
}

/** Brief rows as the CSV's columns (JSON answers as CSV rows), the data's time their latest computation. */
const briefRows = <T extends { briefs: readonly MarketBriefT[] }>(): TableShape<T, unknown> => ({
  rows: (a) => a.briefs.map(briefToRow),
  columns: BRIEF_CSV_COLUMNS,
});
const latestBrief = (a: { briefs: readonly MarketBriefT[] }) => latestTime(a.briefs.map((b) => b.hero.computed_at));

/** The page asked: only the members given (the first page is the service's default request), each checked. */
function pageParams(input: z.input<typeof BriefPageQuery> = {}): URLSearchParams {
  const f = parseParams(BriefPageQuery, input);
  return searchParamsOf({
    limit: input.limit !== undefined ? f.limit : undefined,
    offset: input.offset !== undefined ? f.offset : undefined,
  });
}

export const BRIEF_ENDPOINTS = {
  /** One page of the brief CSV (paging.ts reads every page). */
  briefsCsv: resource(
    { method: 'get', path: '/api/v1/market-brief/all.csv', query: BriefPageQuery },
    { request: (input, e) => ({ path: e.path, params: pageParams(input) }) },
  ),
  /** One page of every brief of the caller's tier; it then answers `marketBriefFields` for its markets. */
  briefsAll: resource(
    { method: 'get', path: '/api/v1/market-brief/all', query: BriefPageQuery, response: MarketBriefAll },
    {
      reader: readBriefsAll,
      request: (input, e) => ({ path: e.path, params: pageParams(input) }),
      table: briefRows<MarketBriefAllT>(),
      citation: () => DCPI_CITATION,
      asOf: (all) => latestBrief(all) ?? latestTime([all.as_of]),
      note: (all) =>
        all.total_available > all.count
          ? `${all.count} of ${all.total_available} briefs (page ${Math.floor(all.offset / all.limit) + 1})`
          : undefined,
    },
  ),
  /** The briefs recomputed after `since`, one page; never served from the cache. */
  briefsDiff: resource(
    {
      method: 'get',
      path: '/api/v1/market-brief/diff',
      query: BriefDiffQuery,
      response: MarketBriefDiff,
      cacheable: false,
    },
    {
      reader: readBriefsDiff,
      // `since` is checked by the caller (fetchBriefsDiff), the pages by the paging.
      request: ({ since, limit, offset }, e) => ({ path: e.path, params: searchParamsOf({ since, limit, offset }) }),
      table: briefRows<MarketBriefDiffT>(),
      citation: () => DCPI_CITATION,
      asOf: (d) => latestBrief(d),
    },
  ),
  /** One market brief (Pro sections are teasers below Pro). */
  brief: resource(
    {
      method: 'get',
      path: '/api/v1/market-brief/:slug',
      params: z.object({ slug: segment('Market slug or alias (nova, dfw, sv, nyc, ...)') }),
      response: MarketBriefResponse,
    },
    {
      reader: readBrief,
      request: pathRequest(slugArg),
      citation: () => DCPI_CITATION,
      asOf: (b) => b.hero.computed_at ?? undefined,
    },
  ),
};
