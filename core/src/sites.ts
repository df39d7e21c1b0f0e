import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { readSiteScore } from './read/sites.js';
import { SiteScoreQuery, siteScoreAliases, type SiteScoreQueryInput, type SiteScoreT } from './schemas/sites.js';
import { flattenPaths, type Table } from './table.js';
import { parseParams } from './validate.js';

export const SITE_SCORE_PATH = ENDPOINTS.siteScore.path;

/** Scores a location (spec §2.3). Sends both `capacity_mw` and the real service's `capacity`. */
export async function siteScore(
  client: DchubClient,
  query: SiteScoreQueryInput,
  opts: CallOptions = {},
): Promise<SiteScoreT> {
  const q = parseParams(SiteScoreQuery, siteScoreAliases(query as Record<string, unknown>));
  const p = new URLSearchParams({ lat: String(q.lat), lon: String(q.lon) });
  if (q.state) p.set('state', q.state);
  if (q.capacity_mw !== undefined) {
    p.set('capacity_mw', String(q.capacity_mw));
    p.set('capacity', String(q.capacity_mw));
  }
  return client.getJson(SITE_SCORE_PATH, readSiteScore, p, opts);
}

/** The answer as a two-column field/value table of every scalar member. */
export function siteScoreTable(s: SiteScoreT): Table {
  return {
    columns: ['field', 'value'],
    rows: flattenPaths(s).map(([k, v]) => [k, v]),
    note: s.interpretation,
  };
}
