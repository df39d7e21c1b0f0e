import Papa from 'papaparse';
import type { CallOptions, DchubClient, Fetched } from './client.js';
import { confirmedTier } from './derive/sources.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { readBriefsCsv } from './read/briefs.js';
import { requestOf, tableOf } from './resource.js';
import { fetchAnswer } from './resource-call.js';
import { briefToRow } from './resources/briefs.js';
import { DCPI_CITATION } from './resources/markets.js';
import {
  BRIEF_CSV_COLUMNS,
  type BriefCsvRowT,
  type MarketBriefAllT,
  type MarketBriefDiffT,
  type MarketBriefT,
} from './schemas/briefs.js';
import { BRIEF_PAGE_DEFAULT } from './plans.js';
import { markPages, readEveryPage, type AllPagesOptions } from './paging.js';
import { latestTime, type Table } from './table.js';

export { briefToRow } from './resources/briefs.js';
export { DCPI_CITATION } from './resources/markets.js';

export const BRIEFS_CSV_PATH = ENDPOINTS.briefsCsv.path;
export const BRIEFS_ALL_PATH = ENDPOINTS.briefsAll.path;
export const BRIEFS_DIFF_PATH = ENDPOINTS.briefsDiff.path;

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

/** A CSV answer split after its header line. */
function splitHeader(text: string): { header: string; body: string } {
  const m = /\r?\n/.exec(text);
  return m ? { header: text.slice(0, m.index), body: text.slice(m.index + m[0].length) } : { header: text, body: '' };
}

/** Rows as CSV data lines in the column order of `header`. */
function csvLines(header: string, rows: readonly BriefCsvRowT[]): string {
  const fields = Papa.parse<string[]>(header).data[0] ?? [...BRIEF_CSV_COLUMNS];
  return rows.length
    ? Papa.unparse(
        { fields, data: rows.map((r) => fields.map((f) => (r as Record<string, unknown>)[f] ?? '')) },
        { header: false, newline: '\r\n' },
      ) + '\r\n'
    : '';
}

/** A later page's data lines under the first page's header (re-written in that column order if the page's differs). */
function pageBody(firstHeader: string, pageText: string, rows: readonly BriefCsvRowT[]): string {
  const { header, body } = splitHeader(pageText);
  return header === firstHeader ? body : csvLines(firstHeader, rows);
}

interface CsvPage extends BriefsCsv {
  total?: number;
  tier?: string;
  /** Data records in the page as served, rows the reader left out included. */
  served: number;
}

/** One CSV page as read (pure over the answer: it runs again on cached text, whose headers are not kept). */
const decodeCsvPage = (
  raw: { text: string; headers: Headers },
  ctx: { warnings: string[] },
): { value: CsvPage; warnings: string[] } => {
  const total = Number(raw.headers.get('x-total-available') ?? Number.NaN);
  return {
    value: {
      rows: readBriefsCsv(raw.text, ctx.warnings),
      served: Math.max(0, Papa.parse(raw.text, { skipEmptyLines: true }).data.length - 1),
      filename: filenameOf(raw.headers.get('content-disposition')),
      text: raw.text,
      total: Number.isFinite(total) ? total : undefined,
      tier: raw.headers.get('x-market-brief-tier') ?? undefined,
    },
    warnings: ctx.warnings,
  };
};

/**
 * GET /api/v1/market-brief/all.csv, every page (50 rows a page below Pro, 500 from Pro; Enterprise
 * has about 232): the rows of all pages, and `text` as served with the header once. Progress after
 * each page; `opts.signal` aborts.
 */
export async function fetchBriefsCsv(client: DchubClient, opts: AllPagesOptions = {}): Promise<BriefsCsv> {
  let text = '';
  let header = '';
  let filename: string | undefined;
  const all = await readEveryPage<BriefCsvRowT>(
    client,
    async ({ limit, offset }, callOpts) => {
      // Each page through the cache (a failed refresh serves the last good page, marked stale).
      const { path, params } = requestOf(ENDPOINTS.briefsCsv, { limit, offset });
      const r = await client.fetchText(path, decodeCsvPage, params, callOpts);
      const page = r.data;
      if (!text) {
        text = page.text;
        header = splitHeader(page.text).header;
        filename = page.filename;
      } else {
        if (!/\n$/.test(text)) text += '\r\n';
        text += pageBody(header, page.text, page.rows);
      }
      return {
        rows: page.rows,
        served: page.served,
        total: page.total,
        tier: page.tier ?? (await confirmedTier(client)),
        meta: r,
      };
    },
    opts,
    { keyOf: (row: BriefCsvRowT) => row.market_slug || undefined },
  );
  // A page that repeated rows: the text as served would hold them twice; it is written again from the rows kept.
  if (all.repeated) text = `${header}\r\n${csvLines(header, all.rows)}`;
  return markPages({ rows: all.rows, filename, text }, all.meta);
}

/** Brief rows as a table in the CSV's own column order, as of their latest computation. */
export const briefsTable = (rows: readonly BriefCsvRowT[]): Table =>
  tableOf({
    shape: 'table',
    rows,
    columns: BRIEF_CSV_COLUMNS,
    open: false,
    citation: DCPI_CITATION,
    asOf: latestTime(rows.map((r) => r.computed_at)),
  });

/** One page of /all (noted as a source of the briefs it holds). */
const fetchBriefsPage = (
  client: DchubClient,
  page: { limit?: number; offset?: number },
  opts: CallOptions,
): Promise<Fetched<MarketBriefAllT>> => fetchAnswer(client, ENDPOINTS.briefsAll, page, opts);

/** GET /api/v1/market-brief/all (one page; it then answers `marketBriefFields` for its markets). */
export async function fetchBriefsAll(
  client: DchubClient,
  page: { limit?: number; offset?: number } = {},
  opts: CallOptions = {},
): Promise<MarketBriefAllT> {
  return (await fetchBriefsPage(client, page, opts)).data;
}

/**
 * Briefs a page held as served: its window (offset, limit) within the total, as the service echoes
 * them — a brief that failed to build is left out by the reader but took its place in the paging.
 */
const servedOf = (page: { briefs: readonly unknown[]; offset: number; limit: number }, total: number): number =>
  Math.max(page.briefs.length, Math.min(page.limit, total - page.offset));

/** A page of briefs as the paging reads it, out of `total` (briefs available, or changed). */
const briefPage = (r: Fetched<MarketBriefAllT | MarketBriefDiffT>, total: number) => ({
  rows: r.data.briefs,
  served: servedOf(r.data, total),
  total,
  tier: r.data.tier,
  meta: r,
});

/** Briefs of several pages in one answer of the page's shape: the first page's head, every brief once (by slug). */
function mergePages<T extends MarketBriefAllT>(
  first: T | undefined,
  briefs: MarketBriefT[],
  total: number,
  pageSize: number,
  streamed: boolean,
): T {
  const seen = new Set<string>();
  const unique = briefs.filter((b) => !seen.has(b.slug) && (seen.add(b.slug), true));
  return {
    ...(first as T),
    count: unique.length,
    total_available: first?.total_available ?? total,
    limit: pageSize,
    offset: 0,
    streamed,
    briefs: unique,
  };
}

/**
 * GET /api/v1/market-brief/all, every page (50 briefs a page below Pro, 500 from Pro; Enterprise has
 * about 232), as one answer of the page's shape. Each page is cached and then answers
 * `marketBriefFields` for its markets; the first page is the default request (no limit/offset), the
 * cached answer `fetchBriefsAll()` and the derive setting's widening share. Progress after each page; `opts.signal`
 * aborts.
 */
export async function fetchBriefsAllPages(client: DchubClient, opts: AllPagesOptions = {}): Promise<MarketBriefAllT> {
  let first: MarketBriefAllT | undefined;
  let streamed = false;
  const all = await readEveryPage<MarketBriefT>(
    client,
    async (page, callOpts) => {
      // The first page as the service's default request: the answer fetchBriefsAll() and widening share.
      const r = await fetchBriefsPage(
        client,
        page.offset === 0 && page.limit === BRIEF_PAGE_DEFAULT ? {} : page,
        callOpts,
      );
      first ??= r.data;
      streamed ||= r.data.streamed;
      return briefPage(r, r.data.total_available);
    },
    opts,
    { firstAtDefault: true, keyOf: (b: MarketBriefT) => b.slug || undefined },
  );
  return markPages(mergePages(first, all.rows, all.total, all.pageSize, streamed), all.meta);
}

/**
 * GET /api/v1/market-brief/diff?since=: every brief recomputed after `since`, all pages, as one
 * answer of the page's shape. Never served from cache. Progress after each page; `opts.signal` aborts.
 */
export async function fetchBriefsDiff(
  client: DchubClient,
  since: string,
  opts: AllPagesOptions = {},
): Promise<MarketBriefDiffT> {
  if (Number.isNaN(Date.parse(since)))
    throw new ValidationError('since', `must be an ISO 8601 time, got ${JSON.stringify(since)}`);
  let last: MarketBriefDiffT | undefined;
  let streamed = false;
  const all = await readEveryPage<MarketBriefT>(
    client,
    async ({ limit, offset }, callOpts) => {
      const r = await fetchAnswer(client, ENDPOINTS.briefsDiff, { since, limit, offset }, callOpts);
      last = r.data;
      streamed ||= r.data.streamed;
      return briefPage(r, r.data.changed_total);
    },
    opts,
    { keyOf: (b: MarketBriefT) => b.slug || undefined },
  );
  // The last page's head: its changed_total counts markets recomputed while the pages were read.
  return markPages(mergePages(last, all.rows, all.total, all.pageSize, streamed), all.meta);
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
