import {
  ErrorBody,
  FACILITIES_DEFAULT_LIMIT,
  FACILITIES_KEYLESS_ROWS,
  FacilityDetail,
  FacilitySearch,
  FacilitySearchQuery,
  SemanticSearchBody,
  SemanticSearchResult,
} from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { buildTfIdf, countryName, facilityBasic, facilityDetail, facilityFull, facilityText, marketLabel, textMatcher, tfIdfSearch } from '../data/facility-search.js';
import type { Facility } from '../data/infrastructure.js';
import { badRequest } from '../http.js';
import { CITATION, CITE, SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { PRICING_URL, gatedMarkers, isKeyless } from '../policy/gating.js';
import type { RouteRegistry } from '../registry.js';

/** Lower-cased search text of every facility, in inventory order (kept per data set). */
export const facilityTexts = (ctx: SandboxContext): string[] =>
  ctx.data.lazy('facility-texts', () => ctx.data.infra.facilities.map(facilityText));

/** Facilities matching the search filters, largest first. */
export function searchFacilities(
  ctx: SandboxContext,
  f: { q?: string; country?: string; market?: string; state?: string; status?: string; countryName?: string },
): Facility[] {
  const texts = facilityTexts(ctx);
  const matchText = textMatcher(f.q);
  const market = f.market?.toLowerCase();
  const state = f.state?.toUpperCase();
  const status = f.status?.toLowerCase();
  const cname = f.countryName?.toLowerCase();
  const out: Facility[] = [];
  ctx.data.infra.facilities.forEach((fac, i) => {
    if (f.country && fac.country !== f.country) return;
    if (state && fac.state !== state) return;
    if (status && fac.status !== status) return;
    if (market && fac.market !== market && marketLabel(fac.market)?.toLowerCase() !== market && fac.market !== market.replace(/\s+/g, '-')) return;
    if (cname) {
      const code = fac.country.toLowerCase();
      const name = (countryName(fac.country) ?? '').toLowerCase();
      if (!(cname.length === 2 ? code === cname || name === cname : name.includes(cname))) return;
    }
    if (!matchText(fac, texts[i])) return;
    out.push(fac);
  });
  return out.sort((a, b) => b.power_mw - a.power_mw || a.id - b.id);
}

const FACILITY_PROVENANCE = {
  provenance_version: 1,
  source: 'DC Hub facility corpus (sandbox: synthetic inventory generated from DCHUB_SEED)',
  method: 'Per-record v: verified for operational sites, tracked for construction/announced',
  default_v: 'tracked',
  license: 'Mixed — see https://dchub.cloud/data-sources',
  cite_as: 'DC Hub, dchub.cloud',
  fallback_url: 'https://dchub.cloud/facilities/directory',
};

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    method: 'get',
    path: '/api/v1/facilities',
    summary: 'Search the facility inventory by text, country and market (keyless callers get 5 rows with basic fields)',
    tags: ['Public'],
    query: FacilitySearchQuery,
    responses: {
      200: { description: 'Matching facilities', schema: FacilitySearch },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const tier = c.get('tier');
      const matches = searchFacilities(ctx, query);
      const keyless = isKeyless(tier);
      const limit = keyless ? Math.min(query.limit ?? FACILITIES_KEYLESS_ROWS, FACILITIES_KEYLESS_ROWS) : (query.limit ?? FACILITIES_DEFAULT_LIMIT);
      const rows = matches.slice(0, limit);
      const base = {
        success: true,
        count: rows.length,
        total_matching: matches.length,
        limit,
        tier,
        provenance: { ...FACILITY_PROVENANCE, verification_counts: { verified: rows.filter((x) => x.status === 'operational').length, tracked: rows.filter((x) => x.status !== 'operational').length } },
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
      };
      if (keyless) {
        return c.json({
          ...base,
          data: rows.map((x) => facilityBasic(ctx.seed, x)),
          full_results_available: matches.length > rows.length,
          upgrade_url: PRICING_URL,
          note: `Keyless preview: showing ${rows.length} of ${matches.length} matching facilities with basic fields. Send X-API-Key for full rows (up to 100). ${SYNTHETIC_NOTICE}`,
          ...gatedMarkers(matches.length, rows.length),
        });
      }
      return c.json({
        ...base,
        data: rows.map((x) => facilityFull(ctx.seed, x)),
        full_results_available: true,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    method: 'get',
    path: '/api/v1/facilities/detail/:facility_id',
    summary: 'Full facility record: contacts, capacity, certifications (requires a key)',
    tags: ['Keyed'],
    requires: 'free',
    pathParams: { facility_id: { description: 'Facility id (integer)', type: 'integer' } },
    responses: {
      200: { description: 'The full facility record', schema: FacilityDetail },
      400: { description: 'facility_id is not an integer', schema: ErrorBody },
      401: { description: 'No API key', schema: ErrorBody },
      404: { description: 'No facility with this id', schema: ErrorBody },
    },
    handler: (c) => {
      const raw = c.req.param('facility_id') ?? '';
      if (!/^\d{1,12}$/.test(raw)) return badRequest(c, 'facility_id', `must be a whole number, got ${JSON.stringify(raw)}`);
      const id = Number(raw);
      const byId = ctx.data.lazy('facility-by-id', () => new Map(ctx.data.infra.facilities.map((f) => [f.id, f])));
      const f = byId.get(id);
      if (!f) return c.json({ success: false, error: 'Facility not found', id }, 404);
      return c.json({
        success: true,
        data: facilityDetail(ctx.seed, f, f.country === 'US' ? ctx.data.infra.carriersByState.get(f.state) : undefined),
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    },
  });

  r.add({
    method: 'post',
    path: '/api/v1/search/semantic',
    summary: 'Natural-language facility search ranked by TF-IDF similarity (Developer plan or higher)',
    tags: ['Keyed'],
    requires: 'developer',
    body: SemanticSearchBody,
    responses: {
      200: { description: 'Facility matches, best first', schema: SemanticSearchResult },
      400: { description: 'query missing or topK out of range', schema: ErrorBody },
      401: { description: 'No API key', schema: ErrorBody },
      403: { description: 'Plan below Developer', schema: ErrorBody },
    },
    handler: (c, { body }) => {
      const index = ctx.data.lazy('facility-tfidf', () => buildTfIdf(ctx.data.infra.facilities));
      const hits = tfIdfSearch(index, body.query, body.topK);
      const matches = hits.map(({ f, score }) => ({
        id: String(f.id),
        score,
        name: f.name,
        provider: f.operator,
        city: f.city,
        state: f.state,
        country: f.country,
        lat: f.lat,
        lng: f.lon,
        power_mw: f.power_mw,
        status: f.status,
        market: f.market,
        hydrated: null,
      }));
      return c.json({
        _entity: 'semantic_search',
        ok: true,
        query: body.query,
        topK: body.topK,
        count: matches.length,
        hydrated: false,
        matches,
        filters: null,
        filter_stats: { fetched: matches.length, matched_filters: matches.length, returned: matches.length },
        index: 'sandbox-facility-tfidf',
        model: 'tf-idf cosine (deterministic sandbox stand-in for vector embeddings)',
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    },
  });
}
