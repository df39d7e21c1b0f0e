import type { CallOptions, DchubClient } from './client.js';
import { noteList } from './derive/items.js';
import { BRIEF_FROM_ALL } from './derive/pairs.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { readBriefsAll, readBriefsCsv, readBriefsDiff } from './read/briefs.js';
import {
  BRIEF_CSV_COLUMNS,
  BriefCsvRow,
  type BriefCsvRowT,
  type MarketBriefAllT,
  type MarketBriefDiffT,
  type MarketBriefT,
} from './schemas/briefs.js';
import { tableFromRecords, type Table } from './table.js';

export const BRIEFS_CSV_PATH = ENDPOINTS.briefsCsv.path;
export const DCPI_CITATION = 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0';

export interface BriefsCsv {
  rows: BriefCsvRowT[];
  /** File name from Content-Disposition, used as-is (spec §4.5). */
  filename?: string;
  /** Raw CSV text as served. */
  text: string;
}

/**
 * Parses the brief CSV (header row, RFC 4180 quoting) into typed rows; rows the service failed to
 * build are left out and named in `warnings` (see readBriefsCsv).
 */
export function parseBriefsCsv(text: string, warnings: string[] = []): BriefCsvRowT[] {
  return readBriefsCsv(text, warnings);
}

const filenameOf = (disposition: string | null): string | undefined =>
  disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;

/** GET /api/v1/market-brief/all.csv (one page; the service's default page without `page`), through the cache. */
export async function fetchBriefsCsv(client: DchubClient, page: { limit?: number; offset?: number } = {}, opts: CallOptions = {}): Promise<BriefsCsv> {
  const r = await client.fetchText(
    BRIEFS_CSV_PATH,
    (raw, ctx) => ({ value: { rows: readBriefsCsv(raw.text, ctx.warnings), filename: filenameOf(raw.headers.get('content-disposition')), text: raw.text }, warnings: ctx.warnings }),
    pageParams(page),
    opts,
  );
  return r.data;
}

const pageParams = (page: { limit?: number; offset?: number }) => {
  const p = new URLSearchParams();
  if (page.limit !== undefined) p.set('limit', String(page.limit));
  if (page.offset !== undefined) p.set('offset', String(page.offset));
  return p;
};

/** Brief rows as a table in the CSV's own column order. */
export function briefsTable(rows: readonly BriefCsvRowT[]): Table {
  const asOf = rows.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
  return tableFromRecords(rows, BRIEF_CSV_COLUMNS, { citation: DCPI_CITATION, asOf: asOf || undefined });
}

export const BRIEFS_ALL_PATH = ENDPOINTS.briefsAll.path;
export const BRIEFS_DIFF_PATH = ENDPOINTS.briefsDiff.path;

/**
 * GET /api/v1/market-brief/all (one page); a brief that failed to build is named in the warnings and
 * left out. The page then answers `marketBriefFields` for its markets.
 */
export async function fetchBriefsAll(client: DchubClient, page: { limit?: number; offset?: number } = {}, opts: CallOptions = {}): Promise<MarketBriefAllT> {
  const p = pageParams(page);
  const r = await client.fetchJson(BRIEFS_ALL_PATH, readBriefsAll, p, opts);
  if (opts.cache !== false) await noteList(client, BRIEF_FROM_ALL, p.toString(), r);
  return r.data;
}

/** GET /api/v1/market-brief/diff?since=: the briefs recomputed after `since`. Never served from cache. */
export async function fetchBriefsDiff(client: DchubClient, since: string, opts: CallOptions = {}): Promise<MarketBriefDiffT> {
  if (Number.isNaN(Date.parse(since))) throw new ValidationError('since', `must be an ISO 8601 time, got ${JSON.stringify(since)}`);
  return client.getJson(BRIEFS_DIFF_PATH, readBriefsDiff, new URLSearchParams({ since }), { ...opts, cache: false });
}

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

export interface BriefMerge {
  rows: BriefCsvRowT[];
  /** Slugs whose row changed (updated in place). */
  changed: string[];
  /** Slugs new to the table (appended). */
  added: string[];
  /** The newest computed_at now in the table: the `since` of the next refresh. */
  asOf: string;
}

const sameRow = (a: BriefCsvRowT, b: BriefCsvRowT) => BRIEF_CSV_COLUMNS.every((c) => a[c] === b[c]);

/**
 * Merges a /diff answer into the rows of a brief table by `market_slug`: changed rows are
 * replaced in place (order kept), new markets appended, the rest untouched.
 */
export function mergeBriefDiff(rows: readonly BriefCsvRowT[], diff: Pick<MarketBriefDiffT, 'briefs'>): BriefMerge {
  const out = [...rows];
  const index = new Map(out.map((r, i) => [r.market_slug, i]));
  const changed: string[] = [];
  const added: string[] = [];
  for (const brief of diff.briefs) {
    const row = briefToRow(brief);
    const i = index.get(row.market_slug);
    if (i === undefined) {
      index.set(row.market_slug, out.length);
      out.push(row);
      added.push(row.market_slug);
    } else if (!sameRow(out[i], row)) {
      out[i] = row;
      changed.push(row.market_slug);
    }
  }
  const asOf = out.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
  return { rows: out, changed, added, asOf };
}
