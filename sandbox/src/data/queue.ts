import { Rng, haversineKm, hexId, round } from '../rng.js';
import { US_STATES, type UsState } from './geography.js';
import { NAME_PREFIXES, NAME_SUFFIXES, SUBSTATION_KV } from './names.js';
import type { FiberNode } from './infrastructure.js';

/** ISO-level average interconnection wait, months (reference notes §2.21). */
export const ISO_TTP_MONTHS: Record<string, number> = {
  PJM: 50.5,
  ERCOT: 32.6,
  MISO: 33.7,
  CAISO: 39.9,
  SPP: 24.0,
  NYISO: 31.4,
  'ISO-NE': 33.8,
};

/** Projects per ISO: about 5,370 in all, in proportions like the live queues. */
const ISO_COUNTS: Record<string, number> = {
  PJM: 1480,
  MISO: 1150,
  ERCOT: 1020,
  CAISO: 760,
  SPP: 480,
  NYISO: 260,
  'ISO-NE': 220,
};

type FuelKind = 'solar' | 'wind' | 'offshore' | 'storage' | 'hybrid' | 'gas' | 'nuclear' | 'hydro' | 'other';

/** Raw fuel labels in each operator's own style, with weights. */
const FUEL_LABELS: Record<string, ReadonlyArray<readonly [[string, FuelKind], number]>> = {
  PJM: [
    [['Solar', 'solar'], 34],
    [['Storage', 'storage'], 18],
    [['Solar; Storage', 'hybrid'], 14],
    [['Wind', 'wind'], 6],
    [['Offshore Wind', 'offshore'], 3],
    [['Natural Gas', 'gas'], 14],
    [['Nuclear', 'nuclear'], 2],
    [['Hydro', 'hydro'], 2],
    [['Methane', 'gas'], 3],
    [['Biomass', 'other'], 2],
    [['Coal', 'other'], 2],
  ],
  ERCOT: [
    [['SOLAR', 'solar'], 33],
    [['BATTERY', 'storage'], 28],
    [['WIND', 'wind'], 12],
    [['GAS - COMBINED CYCLE', 'gas'], 10],
    [['GAS - PEAKER', 'gas'], 9],
    [['SOLAR/BATTERY', 'hybrid'], 6],
    [['NUCLEAR', 'nuclear'], 1],
    [['OTHER', 'other'], 1],
  ],
  MISO: [
    [['Solar', 'solar'], 40],
    [['Wind', 'wind'], 16],
    [['Battery Storage', 'storage'], 17],
    [['Hybrid', 'hybrid'], 12],
    [['Gas', 'gas'], 10],
    [['Nuclear', 'nuclear'], 1],
    [['Hydro', 'hydro'], 2],
    [['Coal', 'other'], 2],
  ],
  CAISO: [
    [['Photovoltaic', 'solar'], 28],
    [['Battery', 'storage'], 35],
    [['Photovoltaic + Battery', 'hybrid'], 18],
    [['Wind Turbine', 'wind'], 8],
    [['Natural Gas', 'gas'], 4],
    [['Geothermal', 'other'], 4],
    [['Hydro', 'hydro'], 3],
  ],
  SPP: [
    [['Solar', 'solar'], 30],
    [['Wind', 'wind'], 30],
    [['Battery/Storage', 'storage'], 20],
    [['Hybrid', 'hybrid'], 8],
    [['Gas', 'gas'], 11],
    [['Nuclear', 'nuclear'], 1],
  ],
  NYISO: [
    [['Solar', 'solar'], 35],
    [['Energy Storage', 'storage'], 30],
    [['Wind', 'wind'], 10],
    [['Offshore Wind', 'offshore'], 10],
    [['Natural Gas', 'gas'], 7],
    [['Dual Fuel', 'gas'], 5],
    [['Hydro', 'hydro'], 3],
  ],
  'ISO-NE': [
    [['Solar', 'solar'], 30],
    [['Battery', 'storage'], 32],
    [['Offshore Wind', 'offshore'], 12],
    [['Wind', 'wind'], 8],
    [['Natural Gas', 'gas'], 10],
    [['Hydro', 'hydro'], 5],
    [['Fuel Cell', 'other'], 3],
  ],
};

const CAPACITY_RANGE: Record<FuelKind, [number, number]> = {
  solar: [5, 900],
  wind: [20, 1200],
  offshore: [200, 3200],
  storage: [5, 700],
  hybrid: [20, 1100],
  gas: [40, 2600],
  nuclear: [300, 2400],
  hydro: [5, 600],
  other: [5, 400],
};

/** Status labels: progressing ones, then the terminal states the `active` filter drops. */
const STATUS_LABELS: Record<string, ReadonlyArray<readonly [string, number]>> = {
  PJM: [
    ['Active', 52],
    ['Engineering & Procurement', 10],
    ['Partially in Service', 3],
    ['Withdrawn', 22],
    ['Suspended', 5],
    ['Commercial Operation', 5],
    ['Deactivated', 3],
  ],
  ERCOT: [
    ['IA FULLY EXECUTED/ON SCHEDULE', 20],
    ['FIS STARTED', 22],
    ['SS COMPLETED', 18],
    ['Withdrawn', 25],
    ['Cancelled', 5],
    ['Commercial Operation', 10],
  ],
  MISO: [
    ['Active', 45],
    ['DPP PHASE I', 12],
    ['DPP PHASE II', 8],
    ['Withdrawn', 25],
    ['Done', 4],
    ['Commercial Operation', 6],
  ],
  CAISO: [
    ['Active', 40],
    ['DISIS STAGE', 18],
    ['IA Executed', 10],
    ['Withdrawn', 24],
    ['Commercial Operation', 8],
  ],
  SPP: [
    ['Active', 40],
    ['Facility Study Stage', 15],
    ['IA FULLY EXECUTED/ON SCHEDULE', 10],
    ['Withdrawn', 25],
    ['Terminated', 4],
    ['Commercial Operation', 6],
  ],
  NYISO: [
    ['Active', 45],
    ['Class Year Study', 15],
    ['Withdrawn', 28],
    ['Commercial Operation', 7],
    ['Suspended', 5],
  ],
  'ISO-NE': [
    ['Active', 50],
    ['System Impact Study', 12],
    ['Withdrawn', 26],
    ['Commercial Operation', 8],
    ['Suspended', 4],
  ],
};

/** States with an ocean coast where offshore wind lands. */
const COASTAL_STATES = new Set([
  'ME',
  'NH',
  'MA',
  'RI',
  'CT',
  'NY',
  'NJ',
  'DE',
  'MD',
  'VA',
  'NC',
  'SC',
  'GA',
  'FL',
  'CA',
  'OR',
  'WA',
  'TX',
  'LA',
]);

const PROJECT_WORD: Record<FuelKind, string> = {
  solar: 'Solar',
  wind: 'Wind',
  offshore: 'Offshore Wind',
  storage: 'Storage',
  hybrid: 'Solar + Storage',
  gas: 'Energy Center',
  nuclear: 'Nuclear',
  hydro: 'Hydro',
  other: 'Power',
};

export interface QueueProject {
  queue_id: string;
  project_name: string;
  iso: string;
  state: string;
  county: string;
  fuel_type: string;
  capacity_mw: number | null;
  queue_status: string;
  queue_date: string;
  poi_name: string;
  lat: number | null;
  lng: number | null;
  fiber_km: number | null;
  estimated_ttp_months: number;
  fuel_class: 'firm/baseload-capable' | 'intermittent';
  coordinate_precision: 'poi_exact' | 'county_centroid' | null;
  /** Precomputed lowercase labels for the predicates. */
  fuelLower: string;
  statusLower: string;
}

/** Labels the `baseload_only` predicate drops (reference notes §2.21, plus CAISO's "Photovoltaic"). */
export const INTERMITTENT_LABEL = /wind|solar|photovoltaic|\bpv\b|storage|battery|bess|hybrid|\bwin\b/i;

const nearestFiberKm = (lat: number, lng: number, nodes: readonly FiberNode[]): number => {
  let best = Infinity;
  for (const n of nodes) {
    // Cheap box reject before the great-circle distance.
    if (Math.abs(n.lat - lat) > 4 || Math.abs(n.lon - lng) > 5) continue;
    const d = haversineKm(lat, lng, n.lat, n.lon);
    if (d < best) best = d;
  }
  return best === Infinity ? 400 : best;
};

export function generateQueue(seed: string, fiberNodes: readonly FiberNode[]): QueueProject[] {
  const rng = new Rng(`${seed}|queue`);
  const out: QueueProject[] = [];
  const statesByIso = new Map<string, UsState[]>();
  for (const st of US_STATES)
    for (const iso of st.isos) {
      if (st.counties.length === 0) continue;
      statesByIso.set(iso, [...(statesByIso.get(iso) ?? []), st]);
    }
  const start = Date.UTC(2015, 0, 1);
  const end = Date.UTC(2026, 9, 31);
  for (const [iso, count] of Object.entries(ISO_COUNTS)) {
    const states = statesByIso.get(iso) ?? [];
    if (!states.length) throw new Error(`no counties for ${iso}`);
    const coastal = states.filter((st) => COASTAL_STATES.has(st.code));
    for (let i = 1; i <= count; i++) {
      const [fuel, kind] = rng.weighted(FUEL_LABELS[iso]);
      // Offshore wind lands on the coast.
      const st = rng.pick(kind === 'offshore' && coastal.length ? coastal : states);
      const county = rng.pick(st.counties);
      const [cmin, cmax] = CAPACITY_RANGE[kind];
      const capacity = rng.chance(0.006) ? null : round(rng.logRange(cmin, cmax), 1);
      const status = rng.weighted(STATUS_LABELS[iso]);
      const geocoded = rng.chance(0.83);
      const exact = geocoded && rng.chance(0.3);
      const lat = geocoded ? round(county.lat + (exact ? rng.range(-0.25, 0.25) : 0), 6) : null;
      const lng = geocoded ? round(county.lon + (exact ? rng.range(-0.3, 0.3) : 0), 6) : null;
      const namePrefix = rng.pick(NAME_PREFIXES);
      const nameSuffix = rng.pick(NAME_SUFFIXES);
      const label = PROJECT_WORD[kind];
      const queueDate = new Date(start + rng.next() * (end - start)).toISOString().slice(0, 10);
      const poiName = `${rng.pick(NAME_PREFIXES)} ${rng.pick(SUBSTATION_KV)} kV`;
      out.push({
        queue_id: `${iso}-${i}`,
        project_name: `${namePrefix} ${nameSuffix} ${label}`,
        iso,
        state: st.code,
        county: county.name,
        fuel_type: fuel,
        capacity_mw: capacity,
        queue_status: status,
        queue_date: queueDate,
        poi_name: poiName,
        lat,
        lng,
        fiber_km: lat !== null && lng !== null ? round(nearestFiberKm(lat, lng, fiberNodes), 1) : null,
        estimated_ttp_months: ISO_TTP_MONTHS[iso],
        fuel_class: INTERMITTENT_LABEL.test(fuel) ? 'intermittent' : 'firm/baseload-capable',
        coordinate_precision: geocoded ? (exact ? 'poi_exact' : 'county_centroid') : null,
        fuelLower: fuel.toLowerCase(),
        statusLower: status.toLowerCase(),
      });
    }
  }
  // Served order: capacity descending, unknown capacity last, then queue id.
  out.sort((a, b) => (b.capacity_mw ?? -1) - (a.capacity_mw ?? -1) || a.queue_id.localeCompare(b.queue_id));
  return out;
}

/** Candidate identifiers live for a week: they are minted per weekly snapshot. */
export const candidateId = (seed: string, queueId: string, snapshotDate: string): string =>
  `cand_${hexId(20, seed, 'cand', queueId, snapshotDate)}`;
