import { FACILITIES_DEFAULT_LIMIT, FACILITIES_KEYLESS_ROWS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import {
  buildTfIdf,
  countryName,
  facilityBasic,
  facilityDetail,
  facilityFull,
  facilityText,
  marketLabel,
  textMatcher,
  tfIdfSearch,
} from '../data/facility-search.js';
import type { Facility } from '../data/infrastructure.js';
import { attribution, SYNTHETIC_NOTICE } from '../labels.js';
import { PRICING_URL, gatedMarkers } from '../policy/gating.js';
import type { Tier } from '../policy/tiers.js';

/** Lower-cased search text of every facility, in inventory order (kept per data set). */
export const facilityTexts = (ctx: SandboxContext): string[] =>
  ctx.data.lazy('facility-texts', () => ctx.data.infra.facilities.map(facilityText));

/** Facilities matching the search filters, largest first. */
export function findFacilities(
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
    if (
      market &&
      fac.market !== market &&
      marketLabel(fac.market)?.toLowerCase() !== market &&
      fac.market !== market.replace(/\s+/g, '-')
    )
      return;
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

export const FACILITY_PROVENANCE = {
  provenance_version: 1,
  source: 'DC Hub facility corpus (sandbox: synthetic inventory generated from DCHUB_SEED)',
  method: 'Per-record v: verified for operational sites, tracked for construction/announced',
  default_v: 'tracked',
  license: 'Mixed — see https://dchub.cloud/data-sources',
  cite_as: 'DC Hub, dchub.cloud',
  fallback_url: 'https://dchub.cloud/facilities/directory',
};

/** One facility by its numeric id. */
export function facilityById(ctx: SandboxContext, id: number): Facility | undefined {
  return ctx.data.lazy('facility-by-id', () => new Map(ctx.data.infra.facilities.map((f) => [f.id, f]))).get(id);
}

/** The answer of GET /api/v1/facilities: keyless callers get 5 rows with basic fields and §5.3 markers. */
export function facilitySearchAnswer(
  ctx: SandboxContext,
  tier: Tier,
  query: { q?: string; country?: string; market?: string; limit?: number },
) {
  const matches = findFacilities(ctx, query);
  const keyless = tier === 'anonymous';
  const limit = keyless
    ? Math.min(query.limit ?? FACILITIES_KEYLESS_ROWS, FACILITIES_KEYLESS_ROWS)
    : (query.limit ?? FACILITIES_DEFAULT_LIMIT);
  const rows = matches.slice(0, limit);
  const base = {
    success: true,
    count: rows.length,
    total_matching: matches.length,
    limit,
    tier,
    provenance: {
      ...FACILITY_PROVENANCE,
      verification_counts: {
        verified: rows.filter((x) => x.status === 'operational').length,
        tracked: rows.filter((x) => x.status !== 'operational').length,
      },
    },
    ...attribution(),
  };
  if (keyless) {
    return {
      ...base,
      data: rows.map((x) => facilityBasic(ctx.seed, x)),
      full_results_available: matches.length > rows.length,
      upgrade_url: PRICING_URL,
      note: `Keyless preview: showing ${rows.length} of ${matches.length} matching facilities with basic fields. Send X-API-Key for full rows (up to 100). ${SYNTHETIC_NOTICE}`,
      ...gatedMarkers(matches.length, rows.length),
    };
  }
  return {
    ...base,
    data: rows.map((x) => facilityFull(ctx.seed, x)),
    full_results_available: true,
    note: SYNTHETIC_NOTICE,
  };
}

/** The full record of one facility (GET /api/v1/facilities/detail/{id}). */
export function facilityDetailAnswer(ctx: SandboxContext, f: Facility) {
  return {
    success: true,
    data: facilityDetail(ctx.seed, f, f.country === 'US' ? ctx.data.infra.carriersByState.get(f.state) : undefined),
    ...attribution(),
  };
}

/** Natural-language facility search ranked by TF-IDF similarity (POST /api/v1/search/semantic). */
export function semanticSearchAnswer(ctx: SandboxContext, query: string, topK: number) {
  const index = ctx.data.lazy('facility-tfidf', () => buildTfIdf(ctx.data.infra.facilities));
  const matches = tfIdfSearch(index, query, topK).map(({ f, score }) => ({
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
  return {
    _entity: 'semantic_search',
    ok: true,
    query,
    topK,
    count: matches.length,
    hydrated: false,
    matches,
    filters: null,
    filter_stats: { fetched: matches.length, matched_filters: matches.length, returned: matches.length },
    index: 'sandbox-facility-tfidf',
    model: 'tf-idf cosine (deterministic sandbox stand-in for vector embeddings)',
    ...attribution(),
  };
}
