/**
 * Generators of the real service's answer shapes (reference notes; values are generated and
 * illustrative, labelled synthetic — no upstream data).
 */

export const KEY = 'dch_live_replaysecret0123456789abcdef01';

export const ISO_TTP: Record<string, number> = {
  PJM: 50.5,
  ERCOT: 32.6,
  MISO: 33.7,
  CAISO: 39.9,
  SPP: 24.0,
  NYISO: 31.4,
  'ISO-NE': 33.8,
};

/** One survivor of the refined queue (notes §2.21), synthetic. */
export function queueRecord(i: number, iso = 'ERCOT', over: Record<string, unknown> = {}): Record<string, unknown> {
  const lat = 30 + (i % 7) * 0.731;
  const lng = -97 - (i % 5) * 0.613;
  return {
    project_name: `Synthetic ${['Solar', 'Gas', 'Battery', 'Wind'][i % 4]} ${100 + i}`,
    iso,
    state: 'TX',
    county: 'TRAVIS',
    fuel_type: ['Solar', 'Natural Gas', 'Battery', 'Wind'][i % 4],
    capacity_mw: 1200 - i * 37.5,
    queue_status: 'IA FULLY EXECUTED/ON SCHEDULE',
    queue_date: '2024-03-01',
    queue_id: `${iso}-${1000 + i}`,
    poi_name: `Synthetic ${345 + i} kV`,
    lat,
    lng,
    fiber_km: 12.5 + i,
    estimated_ttp_months: ISO_TTP[iso] ?? 33,
    fuel_class: i % 4 === 1 ? 'firm/baseload-capable' : 'intermittent',
    v: 'published',
    coordinate_precision: 'county_centroid',
    representative_point: { lat, lng },
    site_evaluation_handoff: {
      analyze_site: { lat, lon: lng, capacity_mw: 1200 - i * 37.5, include_risk: true, include_fiber: true },
      get_water_risk: { lat, lng },
    },
    candidate_id: `cand_${(0xabc000 + i).toString(16).padStart(20, '0')}`,
    ...over,
  };
}

export const PROVENANCE = {
  provenance_version: 1,
  source: 'US ISO public interconnection queues (synthetic replay)',
  method: 'server-side set reduction',
  default_v: 'inferred',
  license: 'CC-BY-4.0',
  cite_as: 'DC Hub, dchub.cloud',
  fallback_url: 'https://dchub.cloud',
};

/** A full refined-queue answer (notes §2.21). */
export function queueAnswer(
  rows: Array<Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    _entity: 'queue_results',
    ok: true,
    snapshot_id: 'snap_2026-11-21',
    search_version: 'refined-queue/2026-07-11',
    candidate_ttl_days: 7,
    count_returned: rows.length,
    count_total_matching: rows.length,
    total_queued_mw: rows.reduce((s, r) => s + (typeof r.capacity_mw === 'number' ? r.capacity_mw : 0), 0),
    filters_applied: {
      min_mw: 0,
      max_ttp_months: null,
      iso: 'ERCOT',
      baseload_only: false,
      fuel_type: null,
      status: 'active',
      max_fiber_km: null,
      geocoded_only: false,
    },
    results: rows,
    summary: { by_iso: { ERCOT: rows.length }, by_fuel_class: {}, geocoded_returned: rows.length },
    _source: 'DC Hub — dchub.cloud',
    _cite: 'Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud"',
    provenance: PROVENANCE,
    note: 'Server-side set-reduction over the live ISO interconnection queue (synthetic replay).',
    ...extra,
  };
}

/** The Sep-2026 tease (notes §1.3, §2.21): 3 rows, numerics null, coordinates at 2 dp. */
export function queueTease(total: number, notApplied: string[]): Record<string, unknown> {
  const rows = [0, 1, 2].map((i) => {
    const r = queueRecord(i);
    const lat = Math.round((r.lat as number) * 100) / 100;
    const lng = Math.round((r.lng as number) * 100) / 100;
    return {
      ...r,
      capacity_mw: null,
      estimated_ttp_months: null,
      fiber_km: null,
      site_evaluation_handoff: null,
      lat,
      lng,
      representative_point: { lat, lng },
    };
  });
  const a = queueAnswer(rows, {
    count_total_matching: total,
    total_queued_mw: null,
    _gated: true,
    _preview_only: true,
    _locked_fields: ['capacity_mw', 'estimated_ttp_months', 'fiber_km', 'site_evaluation_handoff'],
    _total_available: total,
    _preview_params_not_applied: notApplied,
    upgrade_url: 'https://dchub.cloud/go/c/replay-token',
    upgrade_options: [
      {
        plan: 'pack',
        opens: 'rest',
        label: '$10 one-time = 1,000 API credits; each full answer here uses one',
        url: 'https://dchub.cloud/go/c/pack',
      },
      {
        plan: 'developer',
        opens: 'rest',
        label: 'Developer $49/mo opens this endpoint',
        url: 'https://dchub.cloud/go/c/dev',
      },
    ],
  });
  delete a.snapshot_id;
  return a;
}

/** GET /api/site-score (notes §2.15), June shape. */
export function siteScore(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    success: true,
    location: { lat: 33.45, lon: -112.07, state: 'AZ' },
    capacity_requested_mw: 100.0,
    overall_score: 71.4,
    scores: {
      power_infrastructure: 78.0,
      gas_pipeline_access: 70.0,
      fiber_connectivity: 80.0,
      market_conditions: 85.0,
      risk_resilience: 62.0,
    },
    nearby: {
      facilities_100km: 14,
      total_capacity_mw: 650.0,
      substations_50km: 12,
      gas_pipelines_50km: 4,
      power_plants_80km: 8,
      generation_capacity_mw: 3200.0,
      fiber_carriers_in_state: 6,
    },
    interpretation: 'Good site',
    source: 'DC Hub Site Intelligence',
    upgrade_url: 'https://dchub.cloud/pricing',
    ...over,
  };
}

/** One market brief (notes §2.29) as a free caller sees it: Pro sections empty, paywall set. */
export function brief(slug: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const seed = [...slug].reduce((s, ch) => s + ch.charCodeAt(0), 0);
  return {
    ok: true,
    slug,
    hero: {
      slug,
      name: slug.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
      state: null,
      iso: 'PJM',
      verdict: ['BUILD', 'CAUTION', 'AVOID'][seed % 3],
      composite_score: null,
      excess_power: 40 + (seed % 30),
      constraint_score: 30 + (seed % 40),
      queue_wait_months: null,
      time_to_power_mo: null,
      computed_at: '2026-11-21T06:00:00+00:00',
    },
    live_as_of: { iso: '2026-11-21T08:12:00', age_hours: 3.4 },
    kpis: {
      operational_mw: 1000 + seed,
      pipeline_mw: 2000 + seed,
      facility_count: 20 + (seed % 50),
      vacancy_pct: null,
      lease_rate: null,
      queue_months: null,
      top_operator: { name: 'Synthetic Operator', facility_count: 9 },
    },
    outlook: {
      narrative_md: '**12-month outlook** (synthetic replay)',
      word_count: 0,
      generated_at: null,
      verdict: 'CAUTION',
      rationale: 'Auto-template (deep-dive not yet generated).',
    },
    power_grid: null,
    pipeline: [],
    operators: [],
    ma: [],
    comps: { powered_shell: [], land: [] },
    risk: null,
    paywall: {
      required_tier: 'PRO',
      checkout_url: 'https://dchub.cloud/pricing?utm_source=market_brief',
      blurb: 'Power & Grid, Pipeline, Operators, M&A, Comps, Risk — all markets.',
    },
    ...over,
  };
}

export const BRIEF_CSV_HEADER =
  'market_slug,market_name,verdict,composite_score,excess_power,constraint_score,queue_wait_months,iso,state,operational_mw,pipeline_mw,facility_count,vacancy_pct,lease_rate,top_operator,outlook_word_count,live_as_of,computed_at';

/** A row of /all.csv, with the real quirk: `top_operator` as a Python dict repr. */
export function briefCsvRow(slug: string, name: string, verdict: string, score: string): string {
  return `${slug},${name},${verdict},${score},45.5,60.2,,PJM,,3500.0,9600.0,275,,,"{'name': 'Synthetic Operator', 'facility_count': 15}",0,2026-11-21T08:12:00,2026-11-21T06:00:00+00:00`;
}

/** A Cloudflare-style gateway page (notes §8: HTML 502/524 through the CDN). */
export function gatewayPage(status: number, what: string): string {
  return `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<html lang="en-US"><head><title>dchub.cloud | ${status}: ${what}</title>
<meta charset="UTF-8" /><style>body{margin:0;padding:0}</style></head>
<body><div id="cf-wrapper"><h1><span>${what}</span><span>Error code ${status}</span></h1>
<p>Visit <a href="https://www.cloudflare.com/5xx-error-landing">cloudflare.com</a> for more information.</p>
<p>Ray ID: 0000replay0000 &bull; ${new Date(0).toISOString()}</p></div></body></html>`;
}

export const HTML = { 'Content-Type': 'text/html; charset=UTF-8' };
