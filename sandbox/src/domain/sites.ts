import type { SiteScoreT } from '@dchub/core';
import type { Dataset } from '../dataset.js';
import { US_STATES } from '../data/geography.js';
import type { Infrastructure } from '../data/infrastructure.js';
import { haversineKm, round } from '../rng.js';

/** Fiber connectivity by state (VA highest, 55 elsewhere), before the nearby bonuses. */
const FIBER_BY_STATE: Record<string, number> = {
  VA: 95,
  TX: 85,
  CA: 85,
  IL: 85,
  NY: 85,
  NJ: 85,
  GA: 80,
  WA: 80,
  OR: 75,
  AZ: 75,
  OH: 75,
  CO: 75,
  NC: 75,
  PA: 75,
  MA: 75,
  FL: 75,
  NV: 70,
  UT: 70,
  MN: 70,
  MO: 65,
  IA: 65,
  NE: 65,
  TN: 70,
  MD: 80,
  DC: 85,
};
/** Resilience by state (natural hazards, grid stress), 65 elsewhere. */
const RISK_BY_STATE: Record<string, number> = {
  VA: 80,
  OH: 82,
  IL: 80,
  WI: 80,
  IA: 78,
  NE: 78,
  MN: 78,
  OR: 75,
  NY: 74,
  UT: 72,
  NC: 72,
  NJ: 72,
  PA: 76,
  WA: 70,
  GA: 70,
  CO: 70,
  TN: 68,
  TX: 60,
  AZ: 62,
  NV: 64,
  CA: 50,
  FL: 45,
  LA: 48,
  OK: 58,
};

const countWithin = <P extends { lat: number; lon: number }>(
  points: readonly P[],
  lat: number,
  lon: number,
  sqDeg: number,
): P[] => {
  const out: P[] = [];
  for (const p of points) {
    const dlat = p.lat - lat;
    const dlon = p.lon - lon;
    if (dlat * dlat + dlon * dlon < sqDeg) out.push(p);
  }
  return out;
};

/** US state containing (approximately) the point: the nearest county seat or state centroid within 250 km. */
export function stateAt(lat: number, lon: number): string {
  let best = '';
  let bestKm = 250;
  for (const st of US_STATES) {
    for (const p of [st, ...st.counties]) {
      if (Math.abs(p.lat - lat) > 3 || Math.abs(p.lon - lon) > 4) continue;
      const d = haversineKm(lat, lon, p.lat, p.lon);
      if (d < bestKm) {
        bestKm = d;
        best = st.code;
      }
    }
  }
  return best;
}

const interpretation = (s: number) =>
  s >= 80 ? 'Excellent site' : s >= 70 ? 'Good site' : s >= 60 ? 'Viable site' : 'Challenging site';

/** What lies near the point: facilities within 100 km, substations and gas lines within 50, plants within 80. */
function nearbyOf(infra: Infrastructure, lat: number, lon: number, state: string) {
  return {
    facilities: countWithin(infra.facilities, lat, lon, 0.81),
    substations: countWithin(infra.substations, lat, lon, 0.2).length,
    gas: countWithin(infra.gasPipelines, lat, lon, 0.2).length,
    plants: countWithin(infra.powerPlants, lat, lon, 0.52),
    carriersInState: infra.carriersByState.get(state)?.length ?? 0,
  };
}
type Nearby = ReturnType<typeof nearbyOf>;

/** The five sub-scores (reference notes §2.15), from the state and what lies near. */
function subScores(state: string, n: Nearby) {
  const facilities = n.facilities.length;
  return {
    power_infrastructure: Math.min(100, 40 + 2 * n.substations + 1.5 * n.plants.length),
    gas_pipeline_access: n.gas >= 20 ? 95 : n.gas >= 10 ? 85 : n.gas >= 3 ? 70 : n.gas >= 1 ? 55 : 30,
    fiber_connectivity: Math.min(
      100,
      (FIBER_BY_STATE[state] ?? 55) +
        (n.carriersInState >= 5 ? 10 : n.carriersInState >= 2 ? 5 : 0) +
        (facilities >= 20 ? 5 : facilities >= 5 ? 3 : 0),
    ),
    market_conditions: facilities < 5 ? 60 : facilities < 20 ? 85 : facilities < 50 ? 75 : 60,
    risk_resilience: RISK_BY_STATE[state] ?? 65,
  };
}

/** Carrier endpoints within 50 km make the fiber read parcel-based rather than a state estimate. */
function fiberRead(infra: Infrastructure, lat: number, lon: number, connectivity: number): SiteScoreT['fiber'] {
  const carriers = new Map<string, number>();
  for (const n of infra.fiberNodes) {
    if (Math.abs(n.lat - lat) > 0.6 || Math.abs(n.lon - lon) > 0.8) continue;
    const d = haversineKm(lat, lon, n.lat, n.lon);
    if (d <= 50 && d < (carriers.get(n.carrier) ?? Infinity)) carriers.set(n.carrier, d);
  }
  const nearest = [...carriers.entries()].sort((a, b) => a[1] - b[1]);
  if (!nearest.length) return { basis: 'state-level estimate', connectivity_score: connectivity };
  const km = nearest[0][1];
  return {
    basis: 'parcel-based',
    connectivity_score: connectivity,
    carrier_count: nearest.length,
    near_net_bucket: km < 5 ? 'on-net (<5 km)' : km < 25 ? 'near-net (5-25 km)' : 'off-net (25-50 km)',
    nearest_carrier_km: round(km, 1),
    single_carrier_risk: nearest.length === 1,
    top_carriers: nearest.slice(0, 3).map(([carrier, d]) => ({ carrier, distance_km: round(d, 1) })),
  };
}

const CAPACITY_CONTEXT = {
  affects_overall_score: false,
  basis: 'Nameplate generation within 80 km is context only, not available headroom.',
  instead: 'Check interconnection-queue depth and DCPI excess power for deliverable headroom.',
};

/** Site scoring with the published weights (reference notes §2.15) over the synthetic infrastructure. */
export function scoreSiteAt(
  data: Dataset,
  q: { lat: number; lon: number; state?: string; capacity_mw?: number },
): SiteScoreT {
  const { lat, lon } = q;
  const state = (q.state ?? stateAt(lat, lon)).toUpperCase();
  const near = nearbyOf(data.infra, lat, lon, state);
  const scores = subScores(state, near);
  const overall = round(
    0.25 * scores.power_infrastructure +
      0.1 * scores.gas_pipeline_access +
      0.15 * scores.fiber_connectivity +
      0.15 * scores.market_conditions +
      0.35 * scores.risk_resilience,
    1,
  );
  return {
    success: true,
    location: { lat, lon, state },
    capacity_requested_mw: q.capacity_mw ?? null,
    overall_score: overall,
    interpretation: interpretation(overall),
    scores,
    fiber: fiberRead(data.infra, lat, lon, scores.fiber_connectivity),
    nearby: {
      facilities_100km: near.facilities.length,
      total_capacity_mw: round(
        near.facilities.reduce((s, f) => s + f.power_mw, 0),
        1,
      ),
      substations_50km: near.substations,
      gas_pipelines_50km: near.gas,
      power_plants_80km: near.plants.length,
      generation_capacity_mw: round(
        near.plants.reduce((s, p) => s + p.capacity_mw, 0),
        1,
      ),
      fiber_carriers_in_state: near.carriersInState,
    },
    ...(q.capacity_mw !== undefined ? { capacity_context: CAPACITY_CONTEXT } : {}),
    source: 'DC Hub Site Intelligence (sandbox, synthetic data)',
    upgrade_url: 'https://dchub.cloud/pricing',
  };
}
