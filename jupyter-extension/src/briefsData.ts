import { briefToRow, fetchMeta, type BriefCsvRowT, type MarketBriefAllT } from '@dchub/core';
import { briefPageLimit } from './helpers';

/** Upper bound on pages fetched in one load (a runaway `total_available` must not loop forever). */
const MAX_PAGES = 50;

/**
 * Fetches every brief page: the first page at the smallest limit any tier may ask for, then
 * the rest at the tier's maximum. Returns the rows, the tier, and whether any page came from a
 * stale cache.
 */
export async function loadAllBriefs(
  fetchPage: (page: { limit: number; offset: number }) => Promise<MarketBriefAllT>
): Promise<{ rows: BriefCsvRowT[]; tier: string; stale: boolean }> {
  const rows: BriefCsvRowT[] = [];
  let offset = 0;
  let limit = briefPageLimit(undefined);
  let tier = '';
  let stale = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetchPage({ limit, offset });
    tier = answer.tier;
    stale ||= fetchMeta(answer)?.stale === true;
    rows.push(...answer.briefs.map(briefToRow));
    offset += answer.briefs.length;
    if (!answer.briefs.length || offset >= answer.total_available) break;
    limit = briefPageLimit(tier);
  }
  return { rows, tier, stale };
}
