import type { FuelMixIso } from '@dchub/core';
import { dayIso, dayNumber } from '../clock.js';
import { round, unit } from '../rng.js';
import { US_STATES, type UsState } from './geography.js';
import type { QueueProject } from './queue.js';

/**
 * Grid fuel mix per ISO (varying with the hour of the sandbox clock), retail electricity
 * prices per US state, and the five grid-intelligence regions. Synthetic, seeded.
 */

export const FUEL_MIX_INTERVAL_MS = 5 * 60_000;

interface IsoProfile {
  /** Typical total generation, MW. */
  load: number;
  /** Hours offset from UTC (standard time) for the daily shape. */
  utcOffset: number;
  /** Baseline shares; solar scales with daylight, wind with a slow random walk, gas fills in. */
  shares: Record<string, number>;
}

const PROFILES: Record<FuelMixIso, IsoProfile> = {
  ERCOT: {
    load: 52_000,
    utcOffset: -6,
    shares: {
      'Natural Gas': 0.42,
      Wind: 0.24,
      Solar: 0.1,
      Coal: 0.13,
      Nuclear: 0.08,
      'Battery Storage': 0.02,
      Other: 0.01,
    },
  },
  PJM: {
    load: 90_000,
    utcOffset: -5,
    shares: { 'Natural Gas': 0.43, Nuclear: 0.32, Coal: 0.15, Wind: 0.04, Solar: 0.03, Hydro: 0.02, Other: 0.01 },
  },
  CAISO: {
    load: 28_000,
    utcOffset: -8,
    shares: {
      'Natural Gas': 0.38,
      Solar: 0.2,
      Imports: 0.12,
      Wind: 0.08,
      Hydro: 0.08,
      Nuclear: 0.08,
      Geothermal: 0.04,
      'Battery Storage': 0.02,
    },
  },
  MISO: {
    load: 75_000,
    utcOffset: -6,
    shares: { 'Natural Gas': 0.33, Coal: 0.3, Wind: 0.17, Nuclear: 0.14, Solar: 0.03, Hydro: 0.02, Other: 0.01 },
  },
  SPP: {
    load: 35_000,
    utcOffset: -6,
    shares: { Wind: 0.38, 'Natural Gas': 0.28, Coal: 0.24, Nuclear: 0.05, Hydro: 0.03, Solar: 0.02 },
  },
  NYISO: {
    load: 18_000,
    utcOffset: -5,
    shares: { 'Natural Gas': 0.45, Nuclear: 0.2, Hydro: 0.22, Wind: 0.05, Solar: 0.03, Other: 0.05 },
  },
  ISONE: {
    load: 14_000,
    utcOffset: -5,
    shares: { 'Natural Gas': 0.52, Nuclear: 0.24, Hydro: 0.08, Wind: 0.04, Solar: 0.05, Imports: 0.05, Other: 0.02 },
  },
};

export interface FuelMixAnswer {
  iso: FuelMixIso;
  timestamp: string;
  total_generation_mw: number;
  fuel_mix: Array<{ source: string; mw: number; percentage: number }>;
  source: string;
  interval_minutes: number;
  note: string;
}

/** The fuel mix of the 5-minute interval holding `nowMs`. */
export function fuelMix(seed: string, iso: FuelMixIso, nowMs: number, note: string): FuelMixAnswer {
  const p = PROFILES[iso];
  const start = Math.floor(nowMs / FUEL_MIX_INTERVAL_MS) * FUEL_MIX_INTERVAL_MS;
  const localHour = (((start / 3_600_000 + p.utcOffset) % 24) + 24) % 24;
  const daylight = Math.max(0, Math.sin(((localHour - 6) / 12) * Math.PI)); // 0 at night, 1 at 12:00
  const demand =
    0.82 + 0.18 * Math.sin(((localHour - 9) / 24) * 2 * Math.PI) + 0.03 * (unit(seed, 'load', iso, start) - 0.5);
  const hourIdx = Math.floor(start / 3_600_000);
  const windFactor =
    0.6 + 0.8 * (0.7 * unit(seed, 'wind', iso, Math.floor(hourIdx / 6)) + 0.3 * unit(seed, 'wind', iso, hourIdx));

  const weights: Record<string, number> = {};
  for (const [fuel, share] of Object.entries(p.shares)) {
    let w = share;
    if (fuel === 'Solar') w = share * 2.6 * daylight;
    else if (fuel === 'Wind') w = share * windFactor;
    else if (fuel === 'Battery Storage') w = share * (localHour >= 17 && localHour < 22 ? 3 : 0.4);
    else if (fuel === 'Nuclear')
      w = share / demand; // flat MW, so a larger share at low demand
    else w = share * (0.97 + 0.06 * unit(seed, fuel, iso, start));
    weights[fuel] = Math.max(0, w);
  }
  // Gas follows the residual.
  const others = Object.entries(weights)
    .filter(([f]) => f !== 'Natural Gas')
    .reduce((s, [, w]) => s + w, 0);
  weights['Natural Gas'] = Math.max(0.05, 1 - others);
  const total = Object.values(weights).reduce((s, w) => s + w, 0);
  const totalMw = round(p.load * demand, 1);

  const rows = Object.entries(weights)
    .map(([source, w]) => ({ source, percentage: round((w / total) * 100, 1) }))
    .sort((a, b) => b.percentage - a.percentage || (a.source < b.source ? -1 : 1));
  // Rounded shares sum to exactly 100.0: the difference goes to the largest fuel.
  const diff = round(100 - rows.reduce((s, r) => s + r.percentage, 0), 1);
  rows[0].percentage = round(rows[0].percentage + diff, 1);
  return {
    iso,
    timestamp: new Date(start).toISOString(),
    total_generation_mw: totalMw,
    fuel_mix: rows.map((r) => ({
      source: r.source,
      mw: round((totalMw * r.percentage) / 100, 1),
      percentage: r.percentage,
    })),
    source: 'DC Hub sandbox grid feed (synthetic, shaped like GridStatus.io)',
    interval_minutes: 5,
    note,
  };
}

// ---------------------------------------------------------------- retail prices

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[-_.+]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const STATE_BY_KEY = new Map<string, UsState>();
for (const s of US_STATES) {
  STATE_BY_KEY.set(norm(s.code), s);
  STATE_BY_KEY.set(norm(s.name), s);
}
STATE_BY_KEY.set('washington dc', STATE_BY_KEY.get('dc')!);
STATE_BY_KEY.set('d c', STATE_BY_KEY.get('dc')!);

/** A US state by code or name, any case (`tx`, `Texas`, `new-york`, `DC`). */
export const findUsState = (text: string): UsState | undefined => STATE_BY_KEY.get(norm(text));

const monthIso = (y: number, m: number) => `${y}-${String(m + 1).padStart(2, '0')}`;

export function statePrices(seed: string, st: UsState, nowMs: number, note: string) {
  // EIA monthly data lags about two months.
  const now = new Date(nowMs);
  const lastY = now.getUTCFullYear();
  const lastM = now.getUTCMonth() - 2;
  const months: Array<{ period: string; factor: number }> = [];
  for (let k = 11; k >= 0; k--) {
    const d = new Date(Date.UTC(lastY, lastM - k, 1));
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth();
    // Summer peak, a little noise; the newest month is the reference price.
    const seasonal = 0.05 * Math.cos(((m - 7) / 12) * 2 * Math.PI);
    const noise = 0.03 * (unit(seed, 'price', st.code, y, m) - 0.5);
    months.push({ period: monthIso(y, m), factor: 1 + seasonal + noise });
  }
  const ref = months[months.length - 1].factor;
  const ind = st.industrialCents;
  const trend = months.map((x) => ({ period: x.period, price: round((ind * x.factor) / ref, 2) })).reverse();
  const all = round(0.34 * st.industrialCents + 0.36 * st.commercialCents + 0.3 * st.residentialCents, 2);
  return {
    state: st.code,
    state_name: st.name,
    industrial_price_cents_kwh: ind,
    industrial_price_dollars_kwh: round(ind / 100, 4),
    commercial_price_cents_kwh: st.commercialCents,
    residential_price_cents_kwh: st.residentialCents,
    all_sectors_price_cents_kwh: all,
    estimated_monthly_cost_per_mw: round((ind * 1000 * 730) / 100, 2),
    period: trend[0].period,
    price_trend_12mo: trend,
    isos: st.isos,
    source: 'EIA-style retail sales data (sandbox, synthetic)',
    data_quality: 'synthetic',
    note,
  };
}

// ---------------------------------------------------------------- grid-intelligence regions

interface RegionSpec {
  id: string;
  iso: string;
  queueIsos: string[];
  name: string;
  headline: string;
  description: string;
  key_states: string[];
  corridors: number;
  largeLoadGw: number;
  sources: Array<{ iso: string; source_name: string; source_url: string }>;
}

export const GRID_REGION_SPECS: readonly RegionSpec[] = [
  {
    id: 'ercot',
    iso: 'ERCOT',
    queueIsos: ['ERCOT'],
    name: 'ERCOT (Texas)',
    headline: 'Fastest interconnection in the US, with large-load studies now the bottleneck',
    description:
      'Energy-only market covering most of Texas. Large-load requests from data centers have grown faster than generation additions; co-location with gas and solar is common.',
    key_states: ['TX'],
    corridors: 6,
    largeLoadGw: 190,
    sources: [{ iso: 'ERCOT', source_name: 'ERCOT GIS Report', source_url: 'https://www.ercot.com/gridinfo/resource' }],
  },
  {
    id: 'pjm',
    iso: 'PJM',
    queueIsos: ['PJM'],
    name: 'PJM Interconnection',
    headline: 'Largest data center load in the world, longest queue waits',
    description:
      'Thirteen-state RTO including Northern Virginia. Capacity prices and transmission constraints dominate siting; the queue reform cycle governs new generation.',
    key_states: ['VA', 'PA', 'OH', 'MD', 'NJ', 'IL'],
    corridors: 8,
    largeLoadGw: 60,
    sources: [
      {
        iso: 'PJM',
        source_name: 'PJM New Services Queue',
        source_url: 'https://www.pjm.com/planning/services-requests/interconnection-queues',
      },
    ],
  },
  {
    id: 'miso-spp',
    iso: 'MISO/SPP',
    queueIsos: ['MISO', 'SPP'],
    name: 'MISO and SPP (Central US)',
    headline: 'Wind-rich central grid with growing hyperscale campuses',
    description:
      'Midcontinent and Southwest Power Pool footprints. Abundant wind and land; expedited resource adequacy studies favour firm generation paired with large loads.',
    key_states: ['IA', 'MN', 'IL', 'LA', 'OK', 'KS', 'NE'],
    corridors: 7,
    largeLoadGw: 45,
    sources: [
      {
        iso: 'MISO',
        source_name: 'MISO GI Queue',
        source_url: 'https://www.misoenergy.org/planning/resource-utilization/GI_Queue/',
      },
      {
        iso: 'SPP',
        source_name: 'SPP GI Active Requests',
        source_url: 'https://www.spp.org/engineering/generator-interconnection/',
      },
    ],
  },
  {
    id: 'caiso',
    iso: 'CAISO',
    queueIsos: ['CAISO'],
    name: 'CAISO (California)',
    headline: 'Storage-heavy queue, high prices, constrained metro substations',
    description:
      'California ISO. Batteries and solar dominate the queue; Silicon Valley substation capacity limits new data center load.',
    key_states: ['CA'],
    corridors: 4,
    largeLoadGw: 12,
    sources: [
      {
        iso: 'CAISO',
        source_name: 'CAISO Queue Report',
        source_url: 'https://www.caiso.com/planning/Pages/GeneratorInterconnection/Default.aspx',
      },
    ],
  },
  {
    id: 'nyiso-isone',
    iso: 'NYISO/ISO-NE',
    queueIsos: ['NYISO', 'ISO-NE'],
    name: 'NYISO and ISO New England',
    headline: 'Dense load, offshore wind pipeline, limited large-load headroom',
    description:
      'New York and New England. Offshore wind and storage lead the queues; large campuses look upstate and to northern New England.',
    key_states: ['NY', 'MA', 'CT', 'NH', 'ME', 'VT', 'RI'],
    corridors: 3,
    largeLoadGw: 8,
    sources: [
      {
        iso: 'NYISO',
        source_name: 'NYISO Interconnection Queue',
        source_url: 'https://www.nyiso.com/interconnections',
      },
      {
        iso: 'ISO-NE',
        source_name: 'ISO-NE Interconnection Queue',
        source_url: 'https://www.iso-ne.com/system-planning/interconnection-service',
      },
    ],
  },
];

/** The five regions, with queue totals computed from the queue data set. */
export function gridRegions(seed: string, queue: readonly QueueProject[], nowMs: number) {
  const gwByIso = new Map<string, number>();
  for (const p of queue) gwByIso.set(p.iso, (gwByIso.get(p.iso) ?? 0) + (p.capacity_mw ?? 0) / 1000);
  const today = dayNumber(nowMs);
  // Live queue figures refresh daily at 04:00 UTC; narratives are quarterly baselines.
  const refreshedMs = Math.floor((nowMs - 4 * 3_600_000) / 86_400_000) * 86_400_000 + 4 * 3_600_000;
  const baseline = dayIso(today - 30 - Math.floor(unit(seed, 'grid-baseline') * 20));
  return GRID_REGION_SPECS.map((r) => {
    const sources = r.sources.map((s) => ({
      ...s,
      source_as_of: dayIso(dayNumber(refreshedMs)),
      last_refreshed: new Date(refreshedMs).toISOString(),
      age_hours: round((nowMs - refreshedMs) / 3_600_000, 1),
      queued_generation_gw: round(gwByIso.get(s.iso) ?? 0, 1),
      basis_note: 'Sum of active and inactive generation requests in the sandbox queue snapshot (synthetic)',
    }));
    const total = round(
      r.queueIsos.reduce((s, iso) => s + (gwByIso.get(iso) ?? 0), 0),
      1,
    );
    return {
      id: r.id,
      iso: r.iso,
      name: r.name,
      headline: r.headline,
      description: `${r.description} (Sandbox: synthetic narrative.)`,
      page_url: `https://dchub.cloud/grid/${r.id}`,
      key_states: r.key_states,
      corridor_count: r.corridors,
      total_queue_gw: total,
      status: 'live',
      queue_basis: 'generation',
      large_load_queue_gw: round(r.largeLoadGw * (0.9 + 0.2 * unit(seed, 'largeload', r.id)), 1),
      large_load_queue_as_of: dayIso(today - 40).slice(0, 7),
      _queue_gw_source: 'queue_snapshot',
      total_queue_gw_is_live: true,
      total_queue_gw_as_of: dayIso(dayNumber(refreshedMs)),
      total_queue_gw_source: r.sources.map((s) => s.source_name).join(' + '),
      corridors_is_baseline: true,
      narrative_is_baseline: true,
      corridors_baseline_as_of: baseline,
      narrative_baseline_as_of: baseline,
      narrative_source: 'DC Hub editorial baseline (sandbox)',
      total_queue_gw_sources: sources,
    };
  });
}
