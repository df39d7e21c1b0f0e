import { readFacilities } from '../read/facilities.js';
import { pathRequest, resource } from '../resource.js';
import { SemanticSearchBody, SemanticSearchResult } from '../schemas/agent.js';
import { FacilityDetail, FacilitySearch, FacilitySearchQuery } from '../schemas/facilities.js';
import { idParam } from '../schemas/params.js';
import { z } from 'zod';
import { positiveIdArg } from './segments.js';

export const FACILITY_COLUMNS = [
  'id', 'name', 'provider', 'operator', 'city', 'state', 'country', 'market', 'power_mw', 'status', 'latitude', 'longitude', 'v',
  'confidence_badge',
] as const; // prettier-ignore

export const SEMANTIC_COLUMNS = [
  'id', 'score', 'name', 'provider', 'city', 'state', 'country', 'market', 'power_mw', 'status', 'lat', 'lng',
] as const; // prettier-ignore

export const FACILITY_ENDPOINTS = {
  /** Text, country and market search (keyless callers get a 5-row preview). `country` is an ISO 3166-1 alpha-2 code. */
  facilities: resource(
    { method: 'get', path: '/api/v1/facilities', query: FacilitySearchQuery, response: FacilitySearch },
    {
      reader: readFacilities,
      table: { rows: (s) => s.data, columns: FACILITY_COLUMNS, open: true },
      note: (s) =>
        s._gated
          ? (s._upgrade_cta ?? `Preview: ${s.count} of ${s.total_matching} matching facilities`)
          : s.total_matching > s.count
            ? `${s.count} of ${s.total_matching} matching facilities`
            : undefined,
    },
  ),
  /** The full record of one facility (requires a key): its fields (capacity.* flattened; lists as JSON text). */
  facilityDetail: resource(
    {
      method: 'get',
      path: '/api/v1/facilities/detail/:facility_id',
      params: z.object({ facility_id: idParam('Facility id (a positive whole number)') }),
      response: FacilityDetail,
    },
    {
      request: pathRequest(positiveIdArg),
      record: (d) => d.data,
    },
  ),
  /** Natural-language facility search (Developer plan or higher). Not cached. */
  semanticSearch: resource(
    { method: 'post', path: '/api/v1/search/semantic', body: SemanticSearchBody, response: SemanticSearchResult },
    { table: { rows: (r) => r.matches, columns: SEMANTIC_COLUMNS } },
  ),
};
