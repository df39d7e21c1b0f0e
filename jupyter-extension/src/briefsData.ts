import {
  BRIEFS_DIFF_PATH,
  briefToRow,
  fetchMeta,
  MarketBriefDiff,
  ValidationError,
  type BriefCsvRowT,
  type DchubClient,
  type MarketBriefAllT,
  type MarketBriefDiffT,
  type MarketBriefT
} from '@dchub/core';
import { briefPageLimit } from './helpers';

/** Upper bound on pages fetched in one load (a runaway `total_available` must not loop forever). */
const MAX_PAGES = 50;

/** A page request of the brief bulk endpoints. */
export interface BriefPage {
  limit: number;
  offset: number;
}

/**
 * Reads every page: the first at the smallest limit any tier may ask for, then the rest at the
 * tier's maximum, until `total` (total_available, or changed_total for /diff) is reached. A page
 * whose briefs all failed to build does not end the reading.
 */
async function readPages<T extends MarketBriefAllT>(
  fetchPage: (page: BriefPage) => Promise<T>,
  total: (answer: T) => number
): Promise<{ pages: T[]; briefs: MarketBriefT[] }> {
  const pages: T[] = [];
  const briefs: MarketBriefT[] = [];
  let offset = 0;
  let limit = briefPageLimit(undefined);
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetchPage({ limit, offset });
    pages.push(answer);
    briefs.push(...answer.briefs);
    // The next page starts after this one as the service cut it (its offset and limit), not after the
    // briefs read: a brief that failed to build is left out of `briefs` but took its place in the page.
    const next = answer.offset + answer.limit;
    const advanced = Number.isFinite(next) && next > offset ? next : offset + answer.briefs.length;
    if (advanced <= offset || advanced >= total(answer)) break;
    offset = advanced;
    limit = briefPageLimit(answer.tier);
  }
  return { pages, briefs };
}

/**
 * Fetches every brief page. Returns the rows, the tier, and whether any page came from a stale
 * cache.
 */
export async function loadAllBriefs(
  fetchPage: (page: BriefPage) => Promise<MarketBriefAllT>
): Promise<{ rows: BriefCsvRowT[]; tier: string; stale: boolean }> {
  const { pages, briefs } = await readPages(fetchPage, (a) => a.total_available);
  return {
    rows: briefs.map(briefToRow),
    tier: pages[pages.length - 1]?.tier ?? '',
    stale: pages.some((p) => fetchMeta(p)?.stale === true)
  };
}

/** Every page of a /diff answer as one: all the changed briefs, whatever the tier's page size. */
export async function loadBriefsDiff(fetchPage: (page: BriefPage) => Promise<MarketBriefDiffT>): Promise<MarketBriefDiffT> {
  const { pages, briefs } = await readPages(fetchPage, (a) => Math.max(a.changed_total, a.total_available));
  const first = pages[0];
  return { ...first, briefs, count: briefs.length, offset: 0 };
}

/** GET /api/v1/market-brief/diff?since=&limit=&offset= (one page; never from the cache). */
export function fetchBriefsDiffPage(client: DchubClient, since: string, page: BriefPage, signal?: AbortSignal): Promise<MarketBriefDiffT> {
  if (Number.isNaN(Date.parse(since))) throw new ValidationError('since', `must be an ISO 8601 time, got ${JSON.stringify(since)}`);
  const p = new URLSearchParams({ since, limit: String(page.limit), offset: String(page.offset) });
  return client.getJson(BRIEFS_DIFF_PATH, MarketBriefDiff, p, { cache: false, signal });
}
