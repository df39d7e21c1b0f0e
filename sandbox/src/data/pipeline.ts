import { Rng, round } from '../rng.js';
import { NAME_PREFIXES } from './names.js';
import { OPERATORS, type Facility } from './infrastructure.js';
import { METROS } from './metros.js';

/**
 * The construction pipeline: every inventory facility under construction or announced, plus
 * extra campus projects not yet in the inventory. Quarters, investment and pre-leasing are
 * invented from DCHUB_SEED.
 */
export interface PipelineProjectRecord {
  id: number;
  facility_id: number | null;
  company: string;
  project: string;
  market: string;
  market_slug: string | null;
  city: string;
  state: string;
  country: string;
  lat: number;
  lng: number;
  capacity: number;
  investment: number;
  delivery: string;
  status: 'construction' | 'announced';
  preleased: boolean;
  type: string;
}

const METRO_BY_SLUG = new Map(METROS.map((m) => [m.slug, m]));
export const marketName = (slug: string | null, fallback: string): string =>
  slug ? (METRO_BY_SLUG.get(slug)?.name ?? slug) : fallback;

function quarter(rng: Rng, status: 'construction' | 'announced'): string {
  if (status === 'announced' && rng.chance(0.2)) return 'TBD';
  // Construction delivers 2026-Q4 to 2028-Q4; announced projects 2027-Q1 to 2030-Q4.
  const q = status === 'construction' ? rng.int(2026 * 4 + 3, 2028 * 4 + 3) : rng.int(2027 * 4, 2030 * 4 + 3);
  return `${Math.floor(q / 4)}-Q${(q % 4) + 1}`;
}

export function generatePipeline(seed: string, facilities: readonly Facility[]): PipelineProjectRecord[] {
  const rng = new Rng(`${seed}|pipeline`);
  const out: PipelineProjectRecord[] = [];
  for (const f of facilities) {
    if (f.status === 'operational') continue;
    const status = f.status;
    const preleased = rng.chance(status === 'construction' ? 0.55 : 0.25);
    out.push({
      id: 0,
      facility_id: f.id,
      company: f.operator,
      project: f.name,
      market: marketName(f.market, f.city),
      market_slug: f.market,
      city: f.city,
      state: f.state,
      country: f.country,
      lat: f.lat,
      lng: f.lon,
      capacity: f.power_mw,
      investment: round(f.power_mw * rng.range(7, 13), 1),
      delivery: quarter(rng, status),
      status,
      preleased,
      type: f.power_mw >= 100 ? rng.pick(['hyperscale', 'wholesale']) : rng.pick(['wholesale', 'colocation', 'edge']),
    });
  }
  // Large campuses announced but not yet in the facility inventory.
  const hubs = METROS.filter((m) => m.country === 'US').slice(0, 40);
  for (let i = 0; i < 150; i++) {
    const m = rng.pick(hubs);
    const company = rng.pick(OPERATORS);
    const status = rng.chance(0.4) ? 'construction' : 'announced';
    const capacity = Math.round(rng.logRange(100, 2000));
    out.push({
      id: 0,
      facility_id: null,
      company,
      project: `${company} ${rng.pick(NAME_PREFIXES)} ${m.name} Campus`,
      market: m.name,
      market_slug: m.slug,
      city: m.name,
      state: m.state,
      country: m.country,
      lat: round(m.lat + rng.range(-0.4, 0.4), 5),
      lng: round(m.lon + rng.range(-0.4, 0.4), 5),
      capacity,
      investment: round(capacity * rng.range(8, 14), 1),
      delivery: quarter(rng, status),
      status,
      preleased: rng.chance(status === 'construction' ? 0.6 : 0.3),
      type: rng.pick(['hyperscale', 'ai_campus']),
    });
  }
  out.sort((a, b) => b.capacity - a.capacity || (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
  out.forEach((p, i) => (p.id = 90_000 + i));
  return out;
}
