import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS, endpointPath } from './endpoints.js';
import { ValidationError } from './errors.js';
import { SemanticSearchBody, SemanticSearchResult, type SemanticSearchResultT } from './schemas/agent.js';
import { readFacilities } from './read/facilities.js';
import {
  FacilityDetail,
  FacilitySearchQuery,
  type FacilityDetailT,
  type FacilitySearchT,
} from './schemas/facilities.js';
import { fieldTable, recordsTable, tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

const query = (o: Record<string, string | number | boolean | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  return p;
};

/** A positive whole number given as a number or its text, else ValidationError naming `name`. */
export const positiveIdArg = (name: string, v: unknown): number => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,12}$/.test(s) || Number(s) < 1)
    throw new ValidationError(
      name,
      `must be a positive whole number, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
    );
  return Number(s);
};

/** `country` is an ISO 3166-1 alpha-2 code (US, DE, SG). */
export type FacilitySearchInput = z.input<typeof FacilitySearchQuery>;

/** GET /api/v1/facilities: text, country and market search (keyless callers get a 5-row preview). */
export async function searchFacilities(
  client: DchubClient,
  q: FacilitySearchInput = {},
  opts: CallOptions = {},
): Promise<FacilitySearchT> {
  const f = parseParams(FacilitySearchQuery, q);
  return client.getJson(
    ENDPOINTS.facilities.path,
    readFacilities,
    query({ q: f.q, country: f.country, limit: f.limit, market: f.market, state: f.state, status: f.status }),
    opts,
  );
}

export const facilitiesTable = (s: FacilitySearchT): Table =>
  recordsTable(
    s.data,
    [
      'id',
      'name',
      'provider',
      'operator',
      'city',
      'state',
      'country',
      'market',
      'power_mw',
      'status',
      'latitude',
      'longitude',
      'v',
      'confidence_badge',
    ],
    {
      citation: (s as { _cite?: string })._cite ?? s.provenance?.cite_as,
      note: s._gated
        ? (s._upgrade_cta ?? `Preview: ${s.count} of ${s.total_matching} matching facilities`)
        : s.total_matching > s.count
          ? `${s.count} of ${s.total_matching} matching facilities`
          : undefined,
    },
  );

/** GET /api/v1/facilities/detail/{id}: the full record (requires a key). */
export async function facilityDetail(
  client: DchubClient,
  id: number | string,
  opts: CallOptions = {},
): Promise<FacilityDetailT> {
  return client.getJson(
    endpointPath(ENDPOINTS.facilityDetail, { facility_id: positiveIdArg('facility_id', id) }),
    FacilityDetail,
    undefined,
    opts,
  );
}

/** The record as field/value rows (capacity.* flattened; lists as JSON text). */
export const facilityTable = (d: FacilityDetailT): Table =>
  fieldTable(d.data, { citation: (d as { _cite?: string })._cite });

/** POST /api/v1/search/semantic: natural-language facility search (Developer plan or higher). Not cached. */
export async function semanticSearch(
  client: DchubClient,
  text: string,
  topK?: number,
  opts: CallOptions = {},
): Promise<SemanticSearchResultT> {
  const body = parseParams(SemanticSearchBody, { query: text, topK });
  return client.postJson(ENDPOINTS.semanticSearch.path, body, SemanticSearchResult, opts);
}

export const SEMANTIC_COLUMNS = [
  'id',
  'score',
  'name',
  'provider',
  'city',
  'state',
  'country',
  'market',
  'power_mw',
  'status',
  'lat',
  'lng',
] as const;

export const semanticTable = (r: SemanticSearchResultT): Table =>
  tableFromRecords(r.matches, SEMANTIC_COLUMNS, { citation: (r as { _cite?: string })._cite });
