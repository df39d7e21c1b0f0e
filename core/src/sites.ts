import { ENDPOINTS } from './endpoints.js';
import { tableFor } from './resource.js';
import { byInput } from './resource-call.js';

export const SITE_SCORE_PATH = ENDPOINTS.siteScore.path;

/** Scores a location (spec §2.3). Sends both `capacity_mw` and the real service's `capacity`. */
export const siteScore = /* @__PURE__ */ byInput(ENDPOINTS.siteScore);

/** The answer as a two-column field/value table of every scalar member; the interpretation its note. */
export const siteScoreTable = /* @__PURE__ */ tableFor(ENDPOINTS.siteScore);
