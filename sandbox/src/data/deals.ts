import type { DealType } from '@dchub/core';
import { Rng, round } from '../rng.js';
import { OPERATORS } from './infrastructure.js';
import { METROS, type Metro } from './metros.js';

/**
 * Synthetic M&A and investment transactions, 2019-2026. Buyer and seller names are public
 * company names; the pairings, values and dates are invented from DCHUB_SEED.
 */
export interface Deal {
  id: number;
  date: string;
  year: number;
  buyer: string;
  seller: string;
  type: DealType;
  value: number | null;
  value_display: string;
  value_confirmed: boolean;
  mw: number | null;
  market: string;
  market_slug: string;
  country: string;
  region: string;
  category: 'traditional' | 'hyperscaler' | 'ai';
  description: string;
}

export const INVESTORS = [
  'Blackstone',
  'KKR',
  'Brookfield',
  'DigitalBridge',
  'Macquarie Asset Management',
  'Global Infrastructure Partners',
  'Stonepeak',
  'American Tower',
  'BlackRock',
  'Silver Lake',
  'Partners Group',
  'EQT Infrastructure',
  'Ardian',
  'Apollo',
  'TPG',
  'Carlyle',
  'Goldman Sachs Asset Management',
  'Morgan Stanley Infrastructure Partners',
  'PSP Investments',
  'CPP Investments',
  'GIC',
  'Mubadala',
  'ADIA',
  'IFM Investors',
  'AustralianSuper',
  'Manulife Investment Management',
  'Principal Asset Management',
  'Axa IM Alts',
  'Cdpq',
  'Ontario Teachers',
  'Colony Capital',
  'Starwood Capital',
] as const;
export const HYPERSCALERS = [
  'Microsoft',
  'Google',
  'Amazon Web Services',
  'Meta',
  'Oracle',
  'Apple',
  'xAI',
  'OpenAI',
] as const;
export const AI_CLOUDS = [
  'CoreWeave',
  'Lambda',
  'Crusoe',
  'Nebius',
  'Applied Digital',
  'IREN',
  'Core Scientific',
  'TeraWulf',
] as const;
const UTILITIES_LANDS = [
  'Dominion Energy',
  'NextEra Energy',
  'Constellation Energy',
  'Vistra',
  'Talen Energy',
  'Hines',
  'Prologis',
  'Tract',
] as const;

export const DEAL_TYPE_LABELS: Record<DealType, string> = {
  acquisition: 'M&A / Acquisitions',
  investment: 'Equity Investments',
  joint_venture: 'Joint Ventures',
  lease: 'Leases / Pre-lease Commitments',
  development: 'Land / Development',
  merger: 'Mergers',
};

const EUROPE = new Set([
  'GB',
  'IE',
  'DE',
  'NL',
  'FR',
  'BE',
  'ES',
  'PT',
  'IT',
  'CH',
  'AT',
  'CZ',
  'PL',
  'SE',
  'NO',
  'DK',
  'FI',
]);
const APAC = new Set(['JP', 'KR', 'TW', 'HK', 'SG', 'MY', 'ID', 'IN', 'AU', 'NZ', 'CN', 'TH', 'PH', 'VN']);
const LATAM = new Set(['MX', 'BR', 'CL', 'CO', 'AR', 'PE']);

export function regionOf(country: string): string {
  if (country === 'US' || country === 'CA') return 'North America';
  if (EUROPE.has(country)) return 'Europe';
  if (APAC.has(country)) return 'Asia Pacific';
  if (LATAM.has(country)) return 'Latin America';
  return 'Middle East & Africa';
}

export function valueDisplay(millions: number | null): string {
  if (millions === null) return 'Undisclosed';
  return millions >= 1000 ? `$${round(millions / 1000, 1)}B` : `$${Math.round(millions)}M`;
}

const START = Date.UTC(2019, 0, 1);
const END = Date.UTC(2026, 9, 31);

/** About 2,000 deals, newest first. */
export function generateDeals(seed: string): Deal[] {
  const rng = new Rng(`${seed}|deals`);
  // Big markets attract more deals.
  const marketWeights = METROS.map((m, i) => [m, i < 15 ? 12 : i < 60 ? 4 : 1] as const);
  const deals: Omit<Deal, 'id'>[] = [];
  const n = 1950 + rng.int(0, 100);
  for (let i = 0; i < n; i++) {
    // Deal flow grows year over year.
    const t = START + (END - START) * Math.sqrt(rng.next());
    const date = new Date(t).toISOString().slice(0, 10);
    const type = rng.weighted<DealType>([
      ['acquisition', 30],
      ['investment', 25],
      ['joint_venture', 12],
      ['lease', 15],
      ['development', 13],
      ['merger', 5],
    ]);
    const m: Metro = rng.weighted(marketWeights);
    const category = rng.weighted([
      ['traditional', 60],
      ['hyperscaler', 25],
      ['ai', 15],
    ] as const);
    let buyer: string;
    let seller: string;
    switch (type) {
      case 'lease':
        buyer = category === 'ai' ? rng.pick(AI_CLOUDS) : rng.pick(HYPERSCALERS);
        seller = rng.pick(OPERATORS);
        break;
      case 'development':
        buyer = category === 'hyperscaler' ? rng.pick(HYPERSCALERS) : rng.pick(OPERATORS);
        seller = rng.pick(UTILITIES_LANDS);
        break;
      case 'merger':
        buyer = rng.pick(OPERATORS);
        seller = rng.pick(OPERATORS.filter((o) => o !== buyer));
        break;
      case 'investment':
      case 'joint_venture':
        buyer = rng.pick(INVESTORS);
        seller = category === 'ai' ? rng.pick(AI_CLOUDS) : rng.pick(OPERATORS);
        break;
      default:
        buyer = rng.chance(0.7) ? rng.pick(INVESTORS) : rng.pick(OPERATORS);
        seller = rng.pick(OPERATORS.filter((o) => o !== buyer));
    }
    const mw = rng.chance(0.85) ? Math.round(rng.logRange(4, type === 'lease' ? 600 : 1500)) : null;
    const disclosed = rng.chance(0.78);
    const perMw = type === 'lease' ? rng.range(0.8, 2.5) : rng.range(6, 16);
    const value = disclosed ? round(mw !== null ? mw * perMw : rng.logRange(20, 8000), 1) : null;
    const verb: Record<DealType, string> = {
      acquisition: 'acquires',
      investment: 'invests in',
      joint_venture: 'forms joint venture with',
      lease: 'leases capacity from',
      development: 'buys development land from',
      merger: 'merges with',
    };
    deals.push({
      date,
      year: Number(date.slice(0, 4)),
      buyer,
      seller,
      type,
      value,
      value_display: valueDisplay(value),
      value_confirmed: disclosed && rng.chance(0.8),
      mw,
      market: m.name,
      market_slug: m.slug,
      country: m.country,
      region: regionOf(m.country),
      category,
      description: `${buyer} ${verb[type]} ${seller} in ${m.name}${mw !== null ? ` (${mw} MW)` : ''}. Synthetic sandbox record.`,
    });
  }
  deals.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return deals.map((d, i) => ({ id: 50_000 + deals.length - i, ...d }));
}
