import { DAY_MS, dayIso } from '../clock.js';
import type { Dataset } from '../dataset.js';
import { Rng, round, unit } from '../rng.js';
import { US_STATES } from './geography.js';
import type { Facility } from './infrastructure.js';
import { verdictOf, type DcpiScore, type MarketStats } from './markets.js';
import { METROS, type Metro } from './metros.js';

/**
 * Derived per-market data shared by the market, DCPI, AI-capacity and brief endpoints: slug
 * resolution, facilities per market, pipeline arrival dates, the DCPI inputs not kept in
 * `DcpiScore`, and synthetic deal/comp histories. Everything is a pure function of the seed
 * (and the scoring day where it says so).
 */

export const METRO_BY_SLUG: ReadonlyMap<string, Metro> = new Map(METROS.map((m) => [m.slug, m]));

/** Lowercase; every run of characters outside a–z and 0–9 becomes one hyphen (spaces = hyphens). */
export const canonSlug = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Common short names of metro markets (real-service aliases) → the sandbox's market slug. */
export const MARKET_ALIASES: Readonly<Record<string, string>> = {
  ashburn: 'northern-virginia',
  nova: 'northern-virginia',
  'n-virginia': 'northern-virginia',
  'northern-va': 'northern-virginia',
  loudoun: 'northern-virginia',
  dfw: 'dallas',
  'dallas-fort-worth': 'dallas',
  'dallas-ft-worth': 'dallas',
  phx: 'phoenix',
  atl: 'atlanta',
  chi: 'chicago',
  sv: 'silicon-valley',
  'bay-area': 'silicon-valley',
  'sf-bay-area': 'silicon-valley',
  'south-bay': 'silicon-valley',
  'san-jose': 'silicon-valley',
  'santa-clara': 'silicon-valley',
  nyc: 'new-york',
  'new-york-city': 'new-york',
  ny: 'new-york',
  pdx: 'portland',
  slc: 'salt-lake-city',
  clt: 'charlotte',
  den: 'denver',
  msn: 'madison',
};

const BY_NAME: ReadonlyMap<string, Metro> = (() => {
  const m = new Map<string, Metro>();
  for (const metro of METROS) if (!m.has(canonSlug(metro.name))) m.set(canonSlug(metro.name), metro);
  return m;
})();

export interface ResolvedMarket {
  metro: Metro;
  /** The request, canonicalised. */
  requested: string;
  /** True when the request was an alias or a name rather than the slug itself. */
  aliased: boolean;
}

/** Slug, name (case-insensitive, hyphens = spaces) or alias → market; null when unknown. */
export function resolveMarket(input: string): ResolvedMarket | null {
  const requested = canonSlug(input);
  if (!requested) return null;
  const direct = METRO_BY_SLUG.get(requested);
  if (direct) return { metro: direct, requested, aliased: false };
  // Own keys only: a request such as `constructor` must not reach Object.prototype.
  const alias = Object.hasOwn(MARKET_ALIASES, requested) ? MARKET_ALIASES[requested] : undefined;
  const metro = (alias && METRO_BY_SLUG.get(alias)) || BY_NAME.get(requested);
  return metro ? { metro, requested, aliased: true } : null;
}

/** Facilities of each scored market (`facility.market === slug`). */
export function facilitiesByMarket(data: Dataset): ReadonlyMap<string, Facility[]> {
  return data.lazy('market-extras:facilities-by-market', () => {
    const out = new Map<string, Facility[]>(METROS.map((m) => [m.slug, []]));
    for (const f of data.infra.facilities) if (f.market) out.get(f.market)?.push(f);
    return out;
  });
}

const DISCOVERY_START = Date.UTC(2019, 0, 1);
const DISCOVERY_END = Date.UTC(2026, 8, 30);

/** When the facility entered the inventory (fixed per seed). */
export const discoveredAt = (seed: string, id: number): string =>
  new Date(
    DISCOVERY_START + Math.floor((unit(seed, 'discovered', id) * (DISCOVERY_END - DISCOVERY_START)) / 1000) * 1000,
  )
    .toISOString()
    .replace('.000Z', 'Z');

/**
 * Days from `day` until a pipeline facility is expected to energise; null when operational.
 * Construction projects arrive within a year, announced ones in 6–24 months; the schedule rolls
 * forward with the daily cycle.
 */
export function etaDays(seed: string, f: Facility, day: number): number | null {
  if (f.status === 'operational') return null;
  const span = f.status === 'construction' ? 365 : 540;
  const phase = Math.floor(unit(seed, 'eta', f.id) * span);
  const d = (((phase - day) % span) + span) % span;
  return f.status === 'construction' ? d : 180 + d;
}

export const etaDate = (seed: string, f: Facility, day: number): string | null => {
  const d = etaDays(seed, f, day);
  return d === null ? null : dayIso(day + d);
};

/** Industrial retail price of the market's US state in cents/kWh; a fixed synthetic figure abroad. */
export function kwhCents(seed: string, m: Metro): number | null {
  const st = m.country === 'US' ? US_STATES.find((s) => s.code === m.state) : undefined;
  if (st) return st.industrialCents;
  return round(new Rng(`${seed}|kwh|${m.slug}`).range(9, 32), 1);
}

export interface DcpiExtras {
  queue_capacity_mw: number;
  interconnection_pending_mw: number;
  quality_score: number;
  avg_kwh_cents: number | null;
  top_risks_json: string[];
  top_opportunities_json: string[];
}

/** DCPI columns the scorer does not keep, fixed per market and recompute. */
export function dcpiExtras(seed: string, s: DcpiScore): DcpiExtras {
  const rng = new Rng(`${seed}|dcpi-extra|${s.market_slug}|${s.computed_at}`);
  const queue = round(rng.logRange(800, 60_000), 0);
  const risks: string[] = [];
  if (s.queue_wait_months >= 36) risks.push(`${Math.round(s.queue_wait_months)}-month interconnection queue`);
  if (s.reserve_margin_pct < 13) risks.push(`reserve margin only ${s.reserve_margin_pct.toFixed(1)}% (NERC floor 13%)`);
  if (s.emergency_count_30d > 0)
    risks.push(`${s.emergency_count_30d} grid emergency alert${s.emergency_count_30d > 1 ? 's' : ''} in 30 days`);
  if (s.time_to_power_months > 36) risks.push(`time to power ${s.time_to_power_months.toFixed(1)} months`);
  const opps: string[] = [];
  if (s.curtailment_pct >= 5) opps.push(`${s.curtailment_pct.toFixed(1)}% curtailment signals stranded generation`);
  if (s.gen_additions_12mo_mw >= 2000)
    opps.push(`${Math.round(s.gen_additions_12mo_mw).toLocaleString('en-US')} MW of generation added in 12 months`);
  if (s.stranded_capacity_mw >= 500) opps.push(`${Math.round(s.stranded_capacity_mw)} MW of stranded capacity`);
  if (s.reserve_margin_pct >= 20) opps.push(`reserve margin ${s.reserve_margin_pct.toFixed(1)}%`);
  const m = METRO_BY_SLUG.get(s.market_slug)!;
  return {
    queue_capacity_mw: queue,
    interconnection_pending_mw: round(queue * rng.range(0.08, 0.35), 0),
    quality_score: rng.int(60, 98),
    avg_kwh_cents: kwhCents(seed, m),
    top_risks_json: risks.slice(0, 3),
    top_opportunities_json: opps.slice(0, 3),
  };
}

const band = (v: number) => (v >= 65 ? 'strong' : v >= 40 ? 'moderate' : 'weak');
const cband = (v: number) => (v < 45 ? 'clear' : v < 70 ? 'tight' : 'congested');

/** One-paragraph reason for a market's place (leaderboard `reasoning`). */
export function dcpiReasoning(s: DcpiScore): string {
  const why =
    s.verdict === 'BUILD'
      ? 'excess power at or above 65 with constraint at or below 50'
      : s.verdict === 'CAUTION'
        ? 'excess power at or above 50 with constraint at or below 70'
        : 'excess power below 50 or constraint above 70';
  return (
    `Excess Power ${Math.round(s.excess_power_score)} (${band(s.excess_power_score)} — reserve ${s.reserve_margin_pct.toFixed(1)}%, ` +
    `${Math.round(s.gen_additions_12mo_mw)} MW added in 12 months). Constraint ${Math.round(s.constraint_score)} ` +
    `(${cband(s.constraint_score)} — ${s.queue_wait_months.toFixed(1)}-month queue). Time to power ${s.time_to_power_months.toFixed(1)} months. ` +
    `Why ${s.verdict}: ${why}.`
  );
}

/** Templated outlook of exactly `words` words (the brief's `outlook.word_count`). */
export function outlookNarrative(s: DcpiScore, st: MarketStats, words: number): string {
  const sentences = [
    `**12-month outlook: ${s.verdict}**`,
    `${s.market_name} (${s.iso}) scores ${s.composite_score.toFixed(1)} on the DC Hub Power Index, with excess power at ${s.excess_power_score.toFixed(1)} and constraint at ${s.constraint_score.toFixed(1)}.`,
    `New load waits about ${s.queue_wait_months.toFixed(1)} months in the interconnection queue, and time to power is ${s.time_to_power_months.toFixed(1)} months.`,
    `The market holds ${st.facility_count} tracked facilities with ${st.operational_mw.toFixed(1)} MW operational and ${st.pipeline_mw.toFixed(1)} MW in the pipeline.`,
    st.top_operator
      ? `${st.top_operator.name} is the largest operator with ${st.top_operator.facility_count} facilities.`
      : 'No single operator dominates the market.',
    `Vacancy stands near ${st.vacancy_pct.toFixed(1)}% and asking rents near $${st.lease_rate} per kW-month.`,
    `Reserve margin is ${s.reserve_margin_pct.toFixed(1)}% and curtailment ${s.curtailment_pct.toFixed(1)}%, so the grid ${s.excess_power_score >= 50 ? 'has room for new campuses' : 'has little room for new campuses'}.`,
    s.verdict === 'BUILD'
      ? 'Developers who secure land and a utility commitment now should be able to energise within the planning horizon.'
      : s.verdict === 'CAUTION'
        ? 'Projects can proceed, but phased energisation and on-site generation should be part of the plan.'
        : 'New large loads should expect long delays; expansion elsewhere or behind-the-meter supply is the safer path.',
    'This outlook is an automatic template built from synthetic sandbox data and will change when the daily recompute moves the scores.',
  ];
  const pool = sentences.join(' ').split(/\s+/);
  const out: string[] = [];
  while (out.length < words) out.push(...pool.slice(0, words - out.length));
  let text = out.join(' ');
  if (!/[.*]$/.test(text)) text += '.';
  return text;
}

export const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** MW bands of the gated previews (en dash), negatives prefixed `net decline `. */
export function mwBand(mw: number): string {
  if (mw < 0) return `net decline ${mwBand(-mw)}`;
  const bands: Array<[number, string]> = [
    [10, 'under 10 MW'],
    [50, '10–50 MW'],
    [100, '50–100 MW'],
    [500, '100–500 MW'],
    [1000, '500 MW–1 GW'],
    [5000, '1–5 GW'],
    [10_000, '5–10 GW'],
    [50_000, '10–50 GW'],
    [100_000, '50–100 GW'],
    [500_000, '100–500 GW'],
    [1_000_000, '500 GW–1 TW'],
  ];
  if (mw === 0) return '0 MW';
  for (const [max, label] of bands) if (mw < max) return label;
  return '1 TW or more';
}

/** Coarse band of a 0–400 AI capacity score. */
export const scoreBand = (score: number): string =>
  score >= 300 ? '300 or more' : score >= 200 ? '200–300' : score >= 100 ? '100–200' : 'under 100';

// ---------------------------------------------------------------- deals and comps

export interface MarketDeal {
  date: string;
  buyer: string;
  seller: string;
  value: number | null;
  mw: number | null;
  type: string;
  asset?: string;
}

const BUYERS = [
  'Blackstone',
  'KKR',
  'Brookfield',
  'DigitalBridge',
  'Macquarie',
  'GIC',
  'Stonepeak',
  'American Tower',
  'Equinix',
  'Digital Realty',
  'QTS',
  'Vantage',
  'Aligned',
  'CyrusOne',
  'Microsoft',
  'Amazon',
  'Google',
  'Meta',
] as const;
const SELLERS = [
  'Private landowner',
  'Regional developer',
  'Family trust',
  'Industrial REIT',
  'Utility affiliate',
  'Local developer',
  'Flexential',
  'DataBank',
  'Cologix',
  'Sabey',
  'Prime',
  'Stream',
] as const;

const HISTORY_FROM = Date.UTC(2023, 0, 1) / DAY_MS;
const HISTORY_TO = Date.UTC(2028, 0, 1) / DAY_MS;

function history(seed: string, slug: string, kind: string, n: number, make: (rng: Rng) => Omit<MarketDeal, 'date'>) {
  const rng = new Rng(`${seed}|deals|${kind}|${slug}`);
  const rows: Array<MarketDeal & { day: number }> = [];
  for (let i = 0; i < n; i++) {
    const day = rng.int(HISTORY_FROM, HISTORY_TO);
    rows.push({ day, date: dayIso(day), ...make(rng) });
  }
  return rows.sort((a, b) => b.day - a.day || a.buyer.localeCompare(b.buyer));
}

/** Transactions of the last 24 months before `day`, newest first (synthetic). */
export function marketDeals(seed: string, slug: string, day: number, facilityCount: number) {
  const n = Math.min(40, Math.round(facilityCount / 4));
  const within = (rows: Array<MarketDeal & { day: number }>, max: number) =>
    rows
      .filter((r) => r.day <= day && r.day > day - 730)
      .slice(0, max)
      .map(({ day: _d, ...rest }) => rest);
  const ma = history(seed, slug, 'ma', n, (rng) => {
    const mw = round(rng.logRange(5, 600), 1);
    return {
      buyer: rng.pick(BUYERS),
      seller: rng.pick(SELLERS),
      value: rng.chance(0.8) ? Math.round(mw * rng.range(6, 14) * 1e6) : null,
      mw,
      type: rng.pick(['acquisition', 'investment', 'joint_venture', 'lease', 'development'] as const),
    };
  });
  const shell = history(seed, slug, 'shell', Math.round(n / 2), (rng) => {
    const mw = round(rng.logRange(4, 120), 1);
    return {
      buyer: rng.pick(BUYERS),
      seller: rng.pick(SELLERS),
      value: Math.round(mw * rng.range(7, 12) * 1e6),
      mw,
      type: 'powered_shell',
      asset: `${rng.int(50, 900)}k sq ft powered shell`,
    };
  });
  const land = history(seed, slug, 'land', Math.round(n / 2), (rng) => {
    const acres = rng.int(20, 900);
    return {
      buyer: rng.pick(BUYERS),
      seller: rng.pick(SELLERS),
      value: Math.round(acres * rng.range(0.15, 2.5) * 1e6),
      mw: null,
      type: 'land',
      asset: `${acres} acres`,
    };
  });
  return { ma: within(ma, 15), powered_shell: within(shell, 8), land: within(land, 8) };
}

/** Water and hazard notes of a market (fixed per seed). */
export function marketRisk(seed: string, m: Metro) {
  const rng = new Rng(`${seed}|risk|${m.slug}`);
  return {
    water_stress: rng.pick(['low', 'low-medium', 'medium-high', 'high', 'extremely high'] as const),
    drought_months_d2_plus: rng.int(0, 14),
    wildfire_seismic_note: rng.pick([
      'Low wildfire and seismic exposure.',
      'Moderate wildfire exposure in the surrounding counties; low seismic hazard.',
      'Elevated seismic hazard; wildfire exposure low.',
      'Wildfire season affects transmission corridors; plan for public-safety power shutoffs.',
    ] as const),
  };
}

/** The recompute instant (06:00 UTC) of a scoring day, ISO with +00:00. */
export const recomputeIso = (day: number, hour: number): string =>
  new Date(day * DAY_MS + hour * 3_600_000).toISOString().replace('.000Z', '+00:00');

export { verdictOf };
