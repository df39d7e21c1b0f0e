/** Facility tools over the sandbox facility inventory (the data behind /api/v1/facilities). */
import { scalarText } from '@dchub/core';
import type { Facility } from '../../data/infrastructure.js';
import { haversineKm, round } from '../../rng.js';
import { facilityDetailAnswer } from '../../domain/facilities.js';
import { scoreSiteAt } from '../../domain/sites.js';
import { ToolError, labels, lc, slugify, type ToolEnv, type ToolResult } from './common.js';
import { taxIncentives, waterRisk } from './sites.js';

const row = (f: Facility) => ({
  id: f.id,
  name: f.name,
  operator: f.operator,
  city: f.city,
  state: f.state,
  country: f.country,
  market: f.market,
  lat: f.lat,
  lon: f.lon,
  power_mw: f.power_mw,
  status: f.status,
});

export function searchFacilities(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const q = lc(args.query).trim();
  const country = lc(args.country).trim();
  const state = lc(args.state).trim();
  const city = lc(args.city).trim();
  const op = lc(args.operator).trim();
  const min = args.min_capacity_mw as number | undefined;
  const max = args.max_capacity_mw as number | undefined;
  const hits = env.ctx.data.infra.facilities.filter(
    (f) =>
      (!q || [f.name, f.operator, f.city, f.market ?? '', f.state].some((s) => s.toLowerCase().includes(q))) &&
      (!country || f.country.toLowerCase() === country) &&
      (!state || f.state.toLowerCase() === state) &&
      (!city || f.city.toLowerCase().includes(city)) &&
      (!op || f.operator.toLowerCase().includes(op)) &&
      (min === undefined || f.power_mw >= min) &&
      (max === undefined || f.power_mw <= max),
  );
  const offset = (args.offset as number | undefined) ?? 0;
  const limit = (args.limit as number | undefined) ?? 10;
  const facilities = hits.slice(offset, offset + limit).map(row);
  return { success: true, total: hits.length, count: facilities.length, offset, facilities, ...labels() };
}

export function findFacility(env: ToolEnv, args: Record<string, unknown>): Facility {
  const all = env.ctx.data.infra.facilities;
  const idArg = args.facility_id ?? args.id;
  let f: Facility | undefined;
  if (idArg !== undefined) {
    const n = Number((scalarText(idArg) ?? '').replace(/^fac[-_]?/i, ''));
    f = Number.isInteger(n) ? all.find((x) => x.id === n) : undefined;
  } else if (args.slug !== undefined) {
    f = all.find((x) => slugify(x.name) === slugify(String(args.slug)));
  } else if (args.name !== undefined) {
    const n = lc(args.name);
    f = all.find((x) => x.name.toLowerCase() === n) ?? all.find((x) => x.name.toLowerCase().includes(n));
  } else {
    throw new ToolError({
      error: 'facility_id is required',
      hint: 'Pass facility_id (or id, slug or name); search_facilities lists ids.',
    });
  }
  if (!f) throw new ToolError({ error: 'Facility not found', facility_id: idArg ?? args.slug ?? args.name });
  return f;
}

export function getFacility(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const f = findFacility(env, args);
  // The full record is keyed over REST (spec §5.2), so keyless callers get the inventory row.
  let facility: Record<string, unknown> = row(f);
  const keyless = env.tier === 'anonymous';
  if (!keyless) facility = facilityDetailAnswer(env.ctx, f).data;
  const out: ToolResult = {
    success: true,
    facility,
    ...(keyless
      ? {
          detail_requires_key: true,
          _upgrade_cta: 'Send X-API-Key (claim a free key: POST /api/v1/keys/claim) for the full facility record.',
        }
      : {}),
  };
  if (args.include_nearby !== false) {
    out.nearby = env.ctx.data.infra.facilities
      .filter((x) => x.id !== f.id && Math.abs(x.lat - f.lat) < 1 && Math.abs(x.lon - f.lon) < 1.3)
      .map((x) => ({ ...row(x), distance_km: round(haversineKm(f.lat, f.lon, x.lat, x.lon), 1) }))
      .filter((x) => x.distance_km <= 50)
      .sort((a, b) => a.distance_km - b.distance_km || a.id - b.id)
      .slice(0, 5);
  }
  if (args.include_power !== false) {
    const s = scoreSiteAt(env.ctx.data, { lat: f.lat, lon: f.lon });
    out.power = { site_score: s.overall_score, interpretation: s.interpretation, nearby: s.nearby };
  }
  return { ...out, ...labels() };
}

export function findAlternatives(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const target = findFacility(env, { facility_id: args.facility_id });
  const radius = (args.radius_km as number | undefined) ?? 50;
  const matchOn = lc(args.match_on || 'all');
  const limit = (args.limit as number | undefined) ?? 5;
  const alts = env.ctx.data.infra.facilities
    .filter((f) => f.id !== target.id && (!args.exclude_operator || f.operator !== target.operator))
    .map((f) => ({ f, km: haversineKm(target.lat, target.lon, f.lat, f.lon) }))
    .filter((x) => x.km <= radius)
    .map(({ f, km }) => {
      const powerSim = 1 - Math.abs(f.power_mw - target.power_mw) / Math.max(f.power_mw, target.power_mw, 1);
      const distSim = 1 - km / Math.max(radius, 1);
      const parts: Record<string, number> = {
        power: powerSim,
        distance: distSim,
        market: f.market !== null && f.market === target.market ? 1 : 0,
        status: f.status === target.status ? 1 : 0,
        operator: f.operator === target.operator ? 1 : 0,
      };
      const weights: Record<string, number> =
        matchOn === 'power'
          ? { power: 0.7, distance: 0.2, status: 0.1 }
          : matchOn === 'operator'
            ? { operator: 0.6, power: 0.2, distance: 0.2 }
            : matchOn === 'market'
              ? { market: 0.6, distance: 0.3, power: 0.1 }
              : { power: 0.35, distance: 0.3, market: 0.15, status: 0.1, operator: 0.1 };
      const sim = Object.entries(weights).reduce((s, [k, w]) => s + w * parts[k], 0);
      const reasons: string[] = [];
      if (powerSim >= 0.75) reasons.push(`similar power (${f.power_mw} MW vs ${target.power_mw} MW)`);
      if (km <= 10) reasons.push(`close by (${round(km, 1)} km)`);
      if (parts.market) reasons.push(`same market (${f.market})`);
      if (parts.status) reasons.push(`same status (${f.status})`);
      const diffs: string[] = [];
      if (f.operator !== target.operator) diffs.push(`operator ${f.operator} (target: ${target.operator})`);
      if (powerSim < 0.75) diffs.push(`power ${f.power_mw} MW (target: ${target.power_mw} MW)`);
      if (!parts.status) diffs.push(`status ${f.status} (target: ${target.status})`);
      return {
        ...row(f),
        distance_km: round(km, 1),
        similarity_score: round(sim * 100, 1),
        match_reasons: reasons,
        key_differences: diffs,
      };
    })
    .sort((a, b) => b.similarity_score - a.similarity_score || a.id - b.id);
  return {
    success: true,
    target: row(target),
    radius_km: radius,
    match_on: matchOn,
    total: alts.length,
    results: alts.slice(0, limit),
    ...labels(),
  };
}

const WEIGHTS: Record<string, Record<string, number>> = {
  balanced: {
    power: 0.2,
    fiber: 0.15,
    water: 0.1,
    climate_risk: 0.15,
    tax_environment: 0.1,
    talent_pool: 0.15,
    expansion: 0.15,
  },
  power_priority: {
    power: 0.4,
    fiber: 0.1,
    water: 0.1,
    climate_risk: 0.1,
    tax_environment: 0.1,
    talent_pool: 0.1,
    expansion: 0.1,
  },
  risk_priority: {
    power: 0.15,
    fiber: 0.1,
    water: 0.2,
    climate_risk: 0.3,
    tax_environment: 0.05,
    talent_pool: 0.1,
    expansion: 0.1,
  },
  expansion_priority: {
    power: 0.2,
    fiber: 0.1,
    water: 0.05,
    climate_risk: 0.1,
    tax_environment: 0.1,
    talent_pool: 0.1,
    expansion: 0.35,
  },
};

function dimensions(f: Facility, env: ToolEnv): Record<string, { score: number; basis: string }> {
  const s = scoreSiteAt(env.ctx.data, { lat: f.lat, lon: f.lon });
  const water = waterRisk({ lat: f.lat, lon: f.lon }, env).water_stress_score as number;
  let programs = 0;
  try {
    programs =
      f.country === 'US' && f.state ? (taxIncentives({ state: f.state }, env).programs as unknown[]).length : 0;
  } catch {
    programs = 0;
  }
  const facilities = s.nearby?.facilities_100km ?? 0;
  const stats = f.market ? env.ctx.data.stats.get(f.market) : undefined;
  const growth = stats && stats.operational_mw > 0 ? stats.pipeline_mw / stats.operational_mw : 0;
  return {
    power: {
      score: s.scores?.power_infrastructure ?? 50,
      basis: `${s.nearby?.substations_50km ?? 0} substations within 50 km, ${s.nearby?.power_plants_80km ?? 0} plants within 80 km`,
    },
    fiber: { score: s.fiber?.connectivity_score ?? 55, basis: s.fiber?.basis ?? 'state-level estimate' },
    water: { score: round(100 - water, 1), basis: `water stress ${water}/100` },
    climate_risk: { score: s.scores?.risk_resilience ?? 65, basis: 'state hazard and grid-stress resilience' },
    tax_environment: {
      score: f.country === 'US' ? Math.min(100, 45 + programs * 14) : 55,
      basis: `${programs} state incentive programs`,
    },
    talent_pool: {
      score: Math.min(100, round(35 + Math.sqrt(facilities) * 8, 1)),
      basis: `${facilities} facilities within 100 km`,
    },
    expansion: {
      score: Math.min(100, round(40 + growth * 60 + (f.status === 'operational' ? 0 : 10), 1)),
      basis: stats
        ? `market pipeline ${stats.pipeline_mw} MW vs ${stats.operational_mw} MW operational`
        : 'no market statistics',
    },
  };
}

const composite = (dims: Record<string, { score: number }>, w: Record<string, number>) =>
  round(
    Object.entries(w).reduce((s, [k, x]) => s + x * dims[k].score, 0),
    1,
  );

export function scoreFacility(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const f = findFacility(env, { facility_id: args.facility_id });
  const weighting = (args.weighting as string | undefined) ?? 'balanced';
  const w = WEIGHTS[weighting];
  const dims = dimensions(f, env);
  const score = composite(dims, w);
  const peers = env.ctx.data.infra.facilities
    .filter((x) => x.id !== f.id && (f.market ? x.market === f.market : x.country === f.country))
    .slice(0, 20)
    .map((x) => composite(dimensions(x, env), w));
  const below = peers.filter((p) => p < score).length;
  return {
    success: true,
    facility: row(f),
    weighting,
    composite_score: score,
    tier_classification:
      score >= 80
        ? 'Tier 1 — prime'
        : score >= 65
          ? 'Tier 2 — strong'
          : score >= 50
            ? 'Tier 3 — viable'
            : 'Tier 4 — constrained',
    peer_comparison: {
      peer_group: f.market ? `market ${f.market}` : `country ${f.country}`,
      peer_count: peers.length,
      percentile: peers.length ? round((100 * below) / peers.length, 1) : null,
      peer_median: peers.length ? [...peers].sort((a, b) => a - b)[Math.floor(peers.length / 2)] : null,
    },
    dimensions: Object.fromEntries(Object.entries(dims).map(([k, d]) => [k, { ...d, weight: w[k] }])),
    ...labels(),
  };
}
