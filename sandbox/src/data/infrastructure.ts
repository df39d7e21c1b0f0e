import { metroCity } from './metro-cities.js';
import { Rng, round } from '../rng.js';
import { COUNTRIES } from './countries.js';
import { US_STATES } from './geography.js';
import { METROS, type Metro } from './metros.js';

/** Operator names (public company names) used to label synthetic facilities. */
export const OPERATORS = [
  'Equinix',
  'Digital Realty',
  'CyrusOne',
  'QTS',
  'CoreSite',
  'Iron Mountain',
  'Vantage',
  'Aligned',
  'Stack Infrastructure',
  'EdgeConneX',
  'Switch',
  'Flexential',
  'DataBank',
  'NTT',
  'Cologix',
  'Compass',
  'T5',
  'Sabey',
  'Prime',
  'CloudHQ',
  'Yondr',
  'Stream',
  'Novva',
  'Lambda',
  'CoreWeave',
] as const;

export const FIBER_CARRIERS = [
  'Lumen',
  'Zayo',
  'AT&T',
  'Verizon',
  'Crown Castle',
  'Cogent',
  'Windstream Wholesale',
  'Arelion',
  'GTT',
  'Segra',
  'FiberLight',
  'Uniti',
] as const;

export interface Facility {
  id: number;
  name: string;
  operator: string;
  city: string;
  state: string;
  country: string;
  market: string | null;
  lat: number;
  lon: number;
  power_mw: number;
  status: 'operational' | 'construction' | 'announced';
}
export interface Point {
  lat: number;
  lon: number;
}
export interface PowerPlant extends Point {
  capacity_mw: number;
}
export interface FiberNode extends Point {
  carrier: string;
}

export interface Infrastructure {
  facilities: Facility[];
  substations: Point[];
  powerPlants: PowerPlant[];
  gasPipelines: Point[];
  fiberNodes: FiberNode[];
  /** Long-haul carriers present per US state. */
  carriersByState: Map<string, string[]>;
}

/** Facility count per market: the first markets are the big hubs. */
const facilityCount = (rank: number, rng: Rng): number =>
  rank < 15 ? rng.int(60, 280) : rank < 60 ? rng.int(12, 70) : rng.int(3, 24);

export function generateInfrastructure(seed: string): Infrastructure {
  const rng = new Rng(`${seed}|infra`);
  const facilities: Facility[] = [];
  let id = 1000;
  const addFacility = (
    m: Pick<Metro, 'name' | 'state' | 'country' | 'lat' | 'lon'>,
    market: string | null,
    spread: number,
  ) => {
    const operator = rng.pick(OPERATORS);
    const status = rng.weighted([
      ['operational', 80],
      ['construction', 12],
      ['announced', 8],
    ] as const);
    facilities.push({
      id: id++,
      name: `${operator} ${m.name} ${rng.pick(['DC', 'Campus', 'IBX', 'Data Center', 'Hub'])}${rng.int(1, 12)}`,
      operator,
      // A metro's facilities sit in its real towns (Ashburn, Sterling, …); others in the place itself.
      city: market ? metroCity(market, m.name, id) : m.name,
      state: m.state,
      country: m.country,
      market,
      lat: round(m.lat + rng.range(-spread, spread), 5),
      lon: round(m.lon + rng.range(-spread, spread), 5),
      power_mw: round(rng.logRange(0.5, status === 'operational' ? 120 : 400), 1),
      status,
    });
  };
  METROS.forEach((m, rank) => {
    const n = facilityCount(rank, rng);
    for (let i = 0; i < n; i++) addFacility(m, m.slug, 0.35);
  });
  // Facilities outside the scored markets, so the inventory spans 170+ countries.
  for (const c of COUNTRIES) {
    const n = rng.int(1, 8);
    for (let i = 0; i < n; i++)
      addFacility({ name: c.name, state: '', country: c.code, lat: c.lat, lon: c.lon }, null, 0.8);
  }

  const substations: Point[] = [];
  const powerPlants: PowerPlant[] = [];
  const gasPipelines: Point[] = [];
  const near = (p: Point, spread: number): Point => ({
    lat: round(p.lat + rng.range(-spread, spread), 4),
    lon: round(p.lon + rng.range(-spread, spread), 4),
  });
  for (const st of US_STATES) {
    for (const c of st.counties) {
      for (let i = rng.int(2, 10); i > 0; i--) substations.push(near(c, 0.4));
      for (let i = rng.int(0, 4); i > 0; i--)
        powerPlants.push({ ...near(c, 0.5), capacity_mw: round(rng.logRange(20, 2500), 1) });
      for (let i = rng.int(0, 6); i > 0; i--) gasPipelines.push(near(c, 0.5));
    }
  }
  for (const m of METROS) {
    if (m.country !== 'US') continue;
    for (let i = rng.int(4, 22); i > 0; i--) substations.push(near(m, 0.35));
    for (let i = rng.int(1, 6); i > 0; i--)
      powerPlants.push({ ...near(m, 0.5), capacity_mw: round(rng.logRange(50, 3000), 1) });
    for (let i = rng.int(0, 12); i > 0; i--) gasPipelines.push(near(m, 0.4));
  }

  const fiberNodes: FiberNode[] = [];
  const carriersByState = new Map<string, string[]>();
  for (const m of METROS) {
    if (m.country !== 'US') continue;
    const carriers = rng.shuffle(FIBER_CARRIERS).slice(0, rng.int(2, 7));
    for (const carrier of carriers) fiberNodes.push({ ...near(m, 0.15), carrier });
    carriersByState.set(m.state, [...new Set([...(carriersByState.get(m.state) ?? []), ...carriers])]);
  }
  // Long-haul routes also pass through a few county seats between the metros.
  for (const st of US_STATES) {
    for (const c of st.counties)
      if (rng.chance(0.25)) fiberNodes.push({ ...near(c, 0.1), carrier: rng.pick(FIBER_CARRIERS) });
    if (!carriersByState.has(st.code)) carriersByState.set(st.code, [rng.pick(FIBER_CARRIERS)]);
  }
  return { facilities, substations, powerPlants, gasPipelines, fiberNodes, carriersByState };
}
