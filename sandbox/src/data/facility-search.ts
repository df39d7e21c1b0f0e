import { Rng, hexId, round } from '../rng.js';
import { COUNTRIES } from './countries.js';
import { regionOf } from './deals.js';
import { US_STATES } from './geography.js';
import { FIBER_CARRIERS, type Facility } from './infrastructure.js';
import { METROS } from './metros.js';

/** Facility projections (basic, full, detail), text matching and a TF-IDF index for semantic search. */

const COUNTRY_NAME = new Map(COUNTRIES.map((c) => [c.code, c.name]));
const STATE_NAME = new Map(US_STATES.map((s) => [s.code, s.name]));
const METRO_NAME = new Map(METROS.map((m) => [m.slug, m.name]));

export const countryName = (code: string): string | null =>
  COUNTRY_NAME.get(code) ?? (code === 'US' ? 'United States' : null);
export const marketLabel = (slug: string | null): string | null => (slug ? (METRO_NAME.get(slug) ?? slug) : null);

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function facilityBasic(seed: string, f: Facility) {
  const stateName = f.country === 'US' ? (STATE_NAME.get(f.state) ?? null) : null;
  return {
    id: f.id,
    name: f.name,
    city: f.city,
    state: f.state,
    country: f.country,
    provider: f.operator,
    slug: `${slugify(f.name)}-${hexId(8, seed, 'facility', f.id)}`,
    state_name: stateName,
    country_name: countryName(f.country),
    location_display: f.state ? `${f.city}, ${f.state}` : `${f.city}, ${countryName(f.country) ?? f.country}`,
  };
}

export function facilityFull(seed: string, f: Facility) {
  return {
    ...facilityBasic(seed, f),
    operator: f.operator,
    market: f.market,
    market_name: marketLabel(f.market),
    latitude: f.lat,
    longitude: f.lon,
    power_mw: f.power_mw,
    status: f.status,
    region: regionOf(f.country),
    v: f.status === 'operational' ? 'verified' : 'tracked',
    confidence_badge: f.status === 'operational' ? 'high' : f.status === 'construction' ? 'medium' : 'low',
  };
}

const STREETS = [
  'Technology Dr',
  'Data Center Way',
  'Innovation Pkwy',
  'Commerce Blvd',
  'Industrial Rd',
  'Loudoun Pkwy',
  'Research Ct',
  'Gateway Dr',
  'Enterprise Ave',
  'Campus Loop',
];
const FIRST = ['Alex', 'Jordan', 'Sam', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery', 'Drew'];
const LAST = ['Nguyen', 'Patel', 'Garcia', 'Smith', 'Kim', 'Müller', 'Rossi', 'Johnson', 'Okafor', 'Tanaka'];
const CERTS = [
  'ISO 27001',
  'SOC 1 Type II',
  'SOC 2 Type II',
  'PCI DSS',
  'HIPAA',
  'ISO 14001',
  'ISO 50001',
  'Uptime Tier III',
  'Uptime Tier IV',
  'LEED Gold',
  'FedRAMP',
];

/** The full record of the keyed detail route: invented contacts, capacity and certifications. */
export function facilityDetail(seed: string, f: Facility, carriersInState: readonly string[] | undefined) {
  const rng = new Rng(`${seed}|facility-detail|${f.id}`);
  const domain = `${slugify(f.operator)}.example`;
  const whiteSpace = Math.round(f.power_mw * rng.range(5500, 8000));
  return {
    ...facilityFull(seed, f),
    address: `${rng.int(100, 48000)} ${rng.pick(STREETS)}, ${f.city}${f.state ? `, ${f.state}` : ''}`,
    capacity: {
      it_load_mw: f.power_mw,
      utility_power_mw: round(f.power_mw * rng.range(1.25, 1.6), 1),
      white_space_sqft: whiteSpace,
      total_sqft: Math.round(whiteSpace * rng.range(1.6, 2.4)),
      pue_design: round(rng.range(1.15, 1.5), 2),
    },
    certifications: rng.shuffle(CERTS).slice(0, rng.int(2, 6)).sort(),
    contacts: [
      {
        role: 'sales',
        name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        email: `sales@${domain}`,
        phone: `+1-555-01${String(rng.int(0, 99)).padStart(2, '0')}`,
      },
      {
        role: 'noc',
        name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        email: `noc@${domain}`,
        phone: `+1-555-01${String(rng.int(0, 99)).padStart(2, '0')}`,
      },
    ],
    carriers: (carriersInState && carriersInState.length
      ? [...carriersInState]
      : rng.shuffle(FIBER_CARRIERS).slice(0, rng.int(1, 4))
    ).sort(),
    year_opened: f.status === 'operational' ? rng.int(1998, 2025) : null,
    source: 'sandbox synthetic inventory',
  };
}

/** Searchable text of a facility: name, city, operator, market (slug and name), state and country names. */
export function facilityText(f: Facility): string {
  return [
    f.name,
    f.city,
    f.operator,
    f.market ?? '',
    marketLabel(f.market) ?? '',
    f.state,
    STATE_NAME.get(f.state) ?? '',
    countryName(f.country) ?? '',
  ]
    .join(' ')
    .toLowerCase();
}

/** Every whitespace-separated word of `q` occurs in the facility's text (case-insensitive). */
export function textMatcher(q: string | undefined): (f: Facility, text: string) => boolean {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return (_f, text) => words.every((w) => text.includes(w));
}

// ---------------------------------------------------------------- TF-IDF semantic search

const STOP = new Set([
  'the',
  'a',
  'an',
  'in',
  'of',
  'for',
  'and',
  'or',
  'near',
  'at',
  'to',
  'with',
  'data',
  'center',
  'centre',
  'centers',
  'facility',
  'facilities',
]);
export const tokens = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOP.has(t));

export interface TfIdfIndex {
  idf: Map<string, number>;
  docs: Array<{ f: Facility; weights: Map<string, number>; norm: number }>;
}

export function buildTfIdf(facilities: readonly Facility[]): TfIdfIndex {
  const df = new Map<string, number>();
  const raw = facilities.map((f) => {
    const tf = new Map<string, number>();
    for (const t of tokens(facilityText(f))) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return { f, tf };
  });
  const n = facilities.length;
  const idf = new Map<string, number>();
  for (const [t, d] of df) idf.set(t, Math.log(1 + n / d));
  const docs = raw.map(({ f, tf }) => {
    const weights = new Map<string, number>();
    let sq = 0;
    for (const [t, c] of tf) {
      const w = (1 + Math.log(c)) * idf.get(t)!;
      weights.set(t, w);
      sq += w * w;
    }
    return { f, weights, norm: Math.sqrt(sq) || 1 };
  });
  return { idf, docs };
}

/** Cosine similarity of the query's TF-IDF vector with each facility; ties broken by id. */
export function tfIdfSearch(index: TfIdfIndex, query: string, topK: number): Array<{ f: Facility; score: number }> {
  const qtf = new Map<string, number>();
  for (const t of tokens(query)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const qw = new Map<string, number>();
  let sq = 0;
  for (const [t, c] of qtf) {
    const idf = index.idf.get(t);
    if (idf === undefined) continue;
    const w = (1 + Math.log(c)) * idf;
    qw.set(t, w);
    sq += w * w;
  }
  if (qw.size === 0) return [];
  const qn = Math.sqrt(sq);
  const hits: Array<{ f: Facility; score: number }> = [];
  for (const d of index.docs) {
    let dot = 0;
    for (const [t, w] of qw) {
      const dw = d.weights.get(t);
      if (dw !== undefined) dot += w * dw;
    }
    if (dot > 0) hits.push({ f: d.f, score: dot / (qn * d.norm) });
  }
  hits.sort((a, b) => b.score - a.score || a.f.id - b.f.id);
  return hits.slice(0, topK).map((h) => ({ f: h.f, score: round(h.score, 4) }));
}
