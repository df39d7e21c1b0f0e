import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { tableFor, type InputOf } from './resource.js';
import { byInput, fetchData } from './resource-call.js';
import type { SemanticSearchResultT } from './schemas/agent.js';
import type { FacilityDetailT } from './schemas/facilities.js';

export { FACILITY_COLUMNS, SEMANTIC_COLUMNS } from './resources/facilities.js';
export { positiveIdArg } from './resources/segments.js';

/** `country` is an ISO 3166-1 alpha-2 code (US, DE, SG). */
export type FacilitySearchInput = InputOf<typeof ENDPOINTS.facilities>;

/** GET /api/v1/facilities: text, country and market search (keyless callers get a 5-row preview). */
export const searchFacilities = /* @__PURE__ */ byInput(ENDPOINTS.facilities);

export const facilitiesTable = /* @__PURE__ */ tableFor(ENDPOINTS.facilities);

/** GET /api/v1/facilities/detail/{id}: the full record (requires a key). */
export const facilityDetail = (
  client: DchubClient,
  id: number | string,
  opts: CallOptions = {},
): Promise<FacilityDetailT> => fetchData(client, ENDPOINTS.facilityDetail, { facility_id: id }, opts);

/** The record as field/value rows (capacity.* flattened; lists as JSON text). */
export const facilityTable = /* @__PURE__ */ tableFor(ENDPOINTS.facilityDetail);

/** POST /api/v1/search/semantic: natural-language facility search (Developer plan or higher). Not cached. */
export const semanticSearch = (
  client: DchubClient,
  text: string,
  topK?: number,
  opts: CallOptions = {},
): Promise<SemanticSearchResultT> => fetchData(client, ENDPOINTS.semanticSearch, { query: text, topK }, opts);

export const semanticTable = /* @__PURE__ */ tableFor(ENDPOINTS.semanticSearch);
