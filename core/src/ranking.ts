import { ENDPOINTS } from './endpoints.js';
import { answerTable } from './resource.js';
import { byInput } from './resource-call.js';
import type { RankedSitesT, RankSitesArgsInput } from './schemas/ranking.js';
import type { Table } from './table.js';

export const RANK_SITES_PATH = ENDPOINTS.rankSites.path;

export type ScoringMode = 'relative' | 'absolute' | 'percentile';

/** The request body's fields, with `mode` in place of the `absolute`/`percentile` flags. */
export type RankSitesInput = RankSitesArgsInput;

/**
 * POST /api/v1/rank-sites (spec §4.4), the body as its schema reads it. Arguments are checked
 * first, so a bad one spends nothing; the same body is answered from the cache.
 */
export const rankSites = /* @__PURE__ */ byInput(ENDPOINTS.rankSites);

/**
 * Ranked sites as a table: rank, id, objective score, each objective's raw value and normalized
 * score (`norm_<field>`), then the candidates' other scalar fields. The caveats, objectives not
 * scored and candidates left out are `fetchMeta(r).explanations`.
 */
export const rankedTable = (r: RankedSitesT, objectives?: readonly string[]): Table =>
  answerTable(
    ENDPOINTS.rankSites,
    r,
    objectives ? { objectives: Object.fromEntries(objectives.map((o) => [o, 1])) } : {},
  );
