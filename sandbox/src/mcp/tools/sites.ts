/** Location tools computed from the sandbox data: site scoring, water, taxes, renewables. */
import { US_STATES } from '../../data/geography.js';
import { INTERMITTENT_LABEL } from '../../data/queue.js';
import { round, unit } from '../../rng.js';
import { CANDIDATE_TTL_DAYS, findCandidate } from '../../domain/queue.js';
import { scoreSiteAt, stateAt } from '../../domain/sites.js';
import { isoProfile } from './markets.js';
import { ToolError, labels, type ToolEnv, type ToolResult } from './common.js';
import { findMetro, stateArg } from './places.js';

const STATE_BY_CODE = new Map(US_STATES.map((s) => [s.code, s]));

function point(
  args: Record<string, unknown>,
  env: ToolEnv,
  tool: string,
): { lat: number; lon: number; resolved_from?: string } {
  const lat = args.lat as number | undefined;
  const lon = (args.lon ?? args.lng) as number | undefined;
  if (lat !== undefined && lon !== undefined) return { lat, lon };
  if (args.location !== undefined) {
    const m = findMetro(args.location);
    if (!m)
      throw new ToolError({
        error: 'unknown_location',
        tool,
        location: args.location,
        hint: 'Pass lat and lon, or a market slug such as northern-virginia.',
      });
    return { lat: m.lat, lon: m.lon, resolved_from: `market ${m.slug} (published centroid)` };
  }
  void env;
  throw new ToolError({
    error: 'lat and lon are required',
    tool,
    example: { lat: 39.04, lon: -77.49, capacity_mw: 100 },
  });
}

/** The point of a refined-queue candidate id (current snapshot only), with its capacity. */
function candidatePoint(
  args: Record<string, unknown>,
  env: ToolEnv,
): { lat: number; lon: number; capacity_mw?: number; resolved_from: string } {
  const id = String(args.candidate_id).trim();
  const found = findCandidate(env.ctx.data.queue, env.ctx.seed, id, env.nowMs);
  if (!found)
    throw new ToolError({
      error: `candidate_id: unknown candidate ${JSON.stringify(id)}`,
      param: 'candidate_id',
      hint: 'Candidate ids come from the refined queue (results[].candidate_id).',
    });
  if ('expired' in found)
    throw new ToolError({
      error: `candidate_id: ${id} expired (candidates live ${CANDIDATE_TTL_DAYS} days); search the refined queue again`,
      param: 'candidate_id',
    });
  const p = found.project;
  if (p.lat === null || p.lng === null)
    throw new ToolError({
      error: `candidate_id: ${p.queue_id} has no coordinates (not geocoded)`,
      param: 'candidate_id',
    });
  return {
    lat: p.lat,
    lon: p.lng,
    ...(p.capacity_mw !== null ? { capacity_mw: p.capacity_mw } : {}),
    resolved_from: `candidate ${id} (${p.queue_id}, ${p.project_name})`,
  };
}

/**
 * analyze_site: the scoring of GET /api/site-score at lat/lon, a market's centroid or a queue
 * candidate, with grid, risk and fiber sections each left out when its include_* is false.
 */
export function analyzeSite(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const p =
    args.candidate_id !== undefined && args.lat === undefined
      ? candidatePoint(args, env)
      : point(args, env, 'analyze_site');
  const capacity = (args.capacity_mw as number | undefined) ?? (p as { capacity_mw?: number }).capacity_mw;
  const score = scoreSiteAt(env.ctx.data, {
    lat: p.lat,
    lon: p.lon,
    state: args.state as string | undefined,
    capacity_mw: capacity,
  });
  const state = score.location?.state ?? '';
  const out: ToolResult = { ...score, ...(p.resolved_from ? { resolved_from: p.resolved_from } : {}) };
  const excluded: string[] = [];
  if (args.include_grid === false) excluded.push('grid');
  else {
    const iso = US_STATES.find((s) => s.code === state)?.isos[0];
    out.grid = iso ? isoProfile(env, iso) : { note: 'Outside the seven US ISOs: no grid profile.' };
  }
  if (args.include_risk === false) excluded.push('risk');
  else {
    const water = waterRisk({ lat: p.lat, lon: p.lon }, env);
    out.risk = {
      risk_resilience: score.scores?.risk_resilience ?? null,
      water_stress_score: water.water_stress_score,
      drought_category: water.drought_category,
    };
  }
  if (args.include_fiber === false) {
    excluded.push('fiber');
    delete out.fiber;
  }
  return { ...out, ...(excluded.length ? { excluded_sections: excluded } : {}), _cite: labels()._cite };
}

export function compareSites(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  let sites: Array<{ lat: number; lon: number; name?: string }> = [];
  if (Array.isArray(args.sites)) {
    sites = (args.sites as Array<Record<string, unknown>>).map((s) => ({
      lat: s.lat as number,
      lon: (s.lon ?? s.lng) as number,
      name: s.name as string | undefined,
    }));
  } else if (typeof args.locations === 'string') {
    for (const part of args.locations
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [a, b] = part.split(',').map((x) => Number(x.trim()));
      if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a) > 90 || Math.abs(b) > 180) {
        throw new ToolError({
          error: `locations: "${part}" is not a lat,lon pair`,
          example: '39.04,-77.49;32.78,-96.80',
        });
      }
      sites.push({ lat: a, lon: b });
    }
  }
  if (sites.length < 2 || sites.length > 4 || sites.some((s) => typeof s.lon !== 'number')) {
    throw new ToolError({
      error: 'compare_sites needs 2-4 locations',
      example: { locations: '39.04,-77.49;32.78,-96.80' },
    });
  }
  const scored = sites.map((s, i) => {
    const r = scoreSiteAt(env.ctx.data, {
      lat: s.lat,
      lon: s.lon,
      capacity_mw: args.capacity_mw as number | undefined,
    });
    return {
      site: i + 1,
      name: s.name ?? `Site ${i + 1}`,
      lat: s.lat,
      lon: s.lon,
      overall_score: r.overall_score,
      interpretation: r.interpretation,
      state: r.location?.state,
      scores: r.scores,
      nearby: r.nearby,
    };
  });
  const winner = scored.reduce((a, b) => ((b.overall_score ?? -1) > (a.overall_score ?? -1) ? b : a));
  return {
    success: true,
    sites: scored,
    recommended: {
      site: winner.site,
      name: winner.name,
      overall_score: winner.overall_score,
      reason: `Highest composite site score (${winner.overall_score}).`,
    },
    ...labels(),
  };
}

/** Baseline water stress by state (0 = plentiful, 100 = extreme), others from the seed. */
const WATER_BY_STATE: Record<string, number> = {
  AZ: 82,
  NV: 80,
  NM: 74,
  CA: 72,
  UT: 68,
  CO: 62,
  TX: 58,
  OK: 48,
  KS: 46,
  NE: 40,
  ID: 52,
  OR: 36,
  WA: 30,
  VA: 28,
  GA: 34,
  NC: 26,
  OH: 18,
  IL: 20,
  IA: 22,
  MN: 16,
  WI: 14,
  MI: 12,
  NY: 18,
  PA: 16,
  NJ: 24,
  FL: 38,
};

export function waterRisk(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const seed = env.ctx.seed;
  const lat = args.lat as number | undefined;
  const lon = (args.lon ?? args.lng) as number | undefined;
  let state = stateArg(args.state);
  if (!state && lat !== undefined && lon !== undefined) state = stateAt(lat, lon) || undefined;
  if (!state && (lat === undefined || lon === undefined)) {
    throw new ToolError({ error: 'one of lat+lon, state or county is required', example: { lat: 39.04, lon: -77.49 } });
  }
  const base = state
    ? (WATER_BY_STATE[state] ?? round(20 + unit(seed, 'water', state) * 50, 0))
    : round(25 + unit(seed, 'water', round(lat!, 0), round(lon!, 0)) * 50, 0);
  const local =
    lat !== undefined && lon !== undefined ? (unit(seed, 'water-local', round(lat, 1), round(lon, 1)) - 0.5) * 12 : 0;
  const score = Math.max(0, Math.min(100, round(base + local, 1)));
  const category = score >= 80 ? 'D4' : score >= 65 ? 'D3' : score >= 50 ? 'D2' : score >= 35 ? 'D1' : 'D0';
  return {
    success: true,
    location: {
      lat: lat ?? null,
      lon: lon ?? null,
      state: state ?? '',
      county: (args.county as string | undefined) ?? null,
    },
    water_stress_score: score,
    drought_category: category,
    outlook_12mo:
      score >= 65
        ? 'drought likely to persist'
        : score >= 40
          ? 'drought possible in dry season'
          : 'no drought expected',
    cooling_water_assessment:
      score >= 65
        ? 'High stress: plan air-cooled or closed-loop designs; evaporative cooling faces permitting risk.'
        : score >= 40
          ? 'Moderate stress: evaporative cooling feasible with reclaimed-water sourcing.'
          : 'Low stress: conventional evaporative cooling is viable.',
    source:
      'Sandbox drought and water-stress model (synthetic; shapes follow US Drought Monitor / WRI Aqueduct layers)',
    ...labels(),
  };
}

const PROGRAM_TYPES = [
  'sales-tax-exemption',
  'property-tax-abatement',
  'income-tax-credit',
  'electricity-tax-discount',
] as const;
const PROGRAM_LABEL: Record<(typeof PROGRAM_TYPES)[number], string> = {
  'sales-tax-exemption': 'Data Center Sales and Use Tax Exemption',
  'property-tax-abatement': 'Data Center Property Tax Abatement',
  'income-tax-credit': 'Technology Investment Income Tax Credit',
  'electricity-tax-discount': 'Large-Load Electricity Tax Discount',
};

export function taxIncentives(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const code = stateArg(args.state);
  if (!code)
    throw new ToolError({
      error: 'state is required (US state code, e.g. VA)',
      valid_states: US_STATES.map((s) => s.code),
    });
  const st = STATE_BY_CODE.get(code)!;
  const seed = env.ctx.seed;
  const programs = PROGRAM_TYPES.filter((t, i) =>
    i === 0 ? unit(seed, 'tax', code, t) < 0.8 : unit(seed, 'tax', code, t) < 0.45,
  ).map((t) => {
    const u = unit(seed, 'tax-terms', code, t);
    return {
      name: `${st.name} ${PROGRAM_LABEL[t]}`,
      type: t,
      value:
        t === 'sales-tax-exemption'
          ? '100% of qualifying equipment'
          : t === 'property-tax-abatement'
            ? `${Math.round(30 + u * 60)}% for ${Math.round(5 + u * 10)} years`
            : t === 'income-tax-credit'
              ? `${Math.round(2 + u * 8)}% of qualified investment`
              : `${Math.round(10 + u * 30)}% off state electricity tax`,
      eligibility_mw: Math.round(5 + u * 45),
      eligibility_jobs: Math.round(10 + u * 40),
      min_investment_usd: Math.round(50 + u * 450) * 1_000_000,
      expiration_date: `${2030 + Math.floor(u * 15)}-06-30`,
      source_statute: `Sandbox statute ref ${code}-${t.split('-')[0].toUpperCase()}-${Math.floor(u * 900 + 100)} (synthetic)`,
    };
  });
  return { success: true, state: code, state_name: st.name, programs, ...labels() };
}

const RPS: Record<string, number> = {
  CA: 100,
  NY: 70,
  VA: 100,
  IL: 50,
  NJ: 50,
  MA: 80,
  WA: 100,
  OR: 100,
  CO: 80,
  MN: 55,
  MD: 50,
  NV: 50,
  NM: 80,
};

export function renewableEnergy(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  let code = stateArg(args.state);
  if (!code && args.lat !== undefined && args.lon !== undefined)
    code = stateAt(args.lat as number, args.lon as number) || undefined;
  const type = (args.energy_type as string | undefined) ?? 'combined';
  const rows = env.ctx.data.queue.filter(
    (p) =>
      (!code || p.state === code) && INTERMITTENT_LABEL.test(p.fuel_type) && !/withdraw|cancel/i.test(p.queue_status),
  );
  const isSolar = (f: string) => /solar|photovoltaic|\bpv\b/i.test(f);
  const isWind = (f: string) => /wind/i.test(f);
  const isOff = (f: string) => /offshore/i.test(f);
  const pick = rows.filter((p) =>
    type === 'solar'
      ? isSolar(p.fuel_type)
      : type === 'wind'
        ? isWind(p.fuel_type)
        : isSolar(p.fuel_type) || isWind(p.fuel_type),
  );
  const sum = (f: (p: (typeof rows)[number]) => boolean) =>
    round(
      pick.filter(f).reduce((s, p) => s + (p.capacity_mw ?? 0), 0),
      1,
    );
  const top = [...pick]
    .sort((a, b) => (b.capacity_mw ?? 0) - (a.capacity_mw ?? 0) || a.queue_id.localeCompare(b.queue_id))
    .slice(0, 10);
  const solar = sum((p) => isSolar(p.fuel_type));
  return {
    success: true,
    state: code ?? 'US',
    energy_type: type,
    capacity_mw_total: round(
      pick.reduce((s, p) => s + (p.capacity_mw ?? 0), 0),
      1,
    ),
    by_fuel: {
      solar_utility: round(solar * 0.92, 1),
      solar_rooftop: round(solar * 0.08, 1),
      wind_onshore: sum((p) => isWind(p.fuel_type) && !isOff(p.fuel_type)),
      wind_offshore: sum((p) => isOff(p.fuel_type)),
    },
    capacity_factor_pct: type === 'solar' ? 24.5 : type === 'wind' ? 35.2 : 29.8,
    top_projects: top.map((p) => ({
      name: p.project_name,
      mw: p.capacity_mw,
      operator: p.poi_name,
      cod: p.queue_date,
      iso: p.iso,
      queue_id: p.queue_id,
    })),
    state_rps_target_pct: code ? (RPS[code] ?? Math.round(10 + unit(env.ctx.seed, 'rps', code) * 30)) : null,
    source: 'Renewable projects in the sandbox interconnection queue (synthetic)',
    ...labels(),
  };
}
