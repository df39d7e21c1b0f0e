import { DCPI_CITATION } from '../briefs.js';
import { DCPI_INPUT_FIELDS, type DcpiLeaderboardT } from '../schemas/markets.js';
import { topCard, type CardContext, type SectionSpec } from './entity.js';
import {
  date,
  number,
  shown,
  text,
  withMetadata,
  type Attribution,
  type CardValue,
  type EntityValue,
  type FormatName,
} from './values.js';

/**
 * Market cards: one market's DC Hub Power Index (DCPI) — verdict, scores, time to power, the power
 * inputs, risks — from the DCPI answer of one market or a leaderboard row. DCPI scores, verdicts
 * and methodology are CC-BY-4.0 (DATA-LICENSE §1): every DCPI property carries the attribution, and
 * the card its citation with the method version and the retrieval date. Nothing of the facility
 * inventory (no redistribution grant) goes into a market card.
 */

const CC_BY = 'https://creativecommons.org/licenses/by/4.0/';

export function dcpiAttribution(address: string): Attribution {
  return {
    sourceText: 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud',
    sourceAddress: address,
    licenseText: 'CC-BY-4.0',
    licenseAddress: CC_BY,
  };
}

/** DCPI members shown as numbers, with their formats (API names, so `=A1.composite_score` needs no brackets). */
const NUMBERS: ReadonlyArray<[string, FormatName]> = [
  ['composite_score', 'score'],
  ['excess_power_score', 'score'],
  ['constraint_score', 'score'],
  ['time_to_power_months', 'months'],
  ['rank', 'count'],
  ['latitude', 'degrees'],
  ['longitude', 'degrees'],
  ['quality_score', 'count'],
  ['queue_capacity_mw', 'mw'],
  ['queue_wait_months', 'months'],
  ['reserve_margin_pct', 'percent'],
  ['gen_additions_12mo_mw', 'mw'],
  ['curtailment_pct', 'percent'],
  ['stranded_capacity_mw', 'mw'],
  ['emergency_count_30d', 'count'],
  ['avg_kwh_cents', 'centsPerKwh'],
];
const TEXTS = ['market_slug', 'verdict', 'state', 'iso', 'method_version', 'reasoning'] as const;
/** The service's lists (`top_risks_json`) under the name they are read by. */
const LISTS: ReadonlyArray<[string, string]> = [
  ['top_risks_json', 'top_risks'],
  ['top_opportunities_json', 'top_opportunities'],
];

const SECTIONS: readonly SectionSpec[] = [
  {
    headline: true,
    properties: [
      'verdict',
      'composite_score',
      'excess_power_score',
      'constraint_score',
      'time_to_power_months',
      'rank',
    ],
  },
  { title: 'Market', properties: ['market_slug', 'state', 'iso', 'latitude', 'longitude', 'quality_score'] },
  { title: 'Power', properties: [...DCPI_INPUT_FIELDS, 'avg_kwh_cents'] },
  { title: 'Risks', properties: ['top_risks', 'top_opportunities', 'reasoning'] },
];

const has = (r: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(r, k);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A list as one line: `null` (withheld or unknown) blank, an empty list "none listed". */
function listText(v: unknown): CardValue {
  if (!Array.isArray(v)) return text(null);
  const items = v.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return text(items.length ? items.join('; ') : 'none listed');
}

/** A market as DCPI names it: `Northern Virginia` → `northern-virginia` (slugs and aliases pass unchanged). */
export const marketSlug = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** One market's card from its DCPI record (the single answer, the DCPI list's row or a leaderboard row). */
export function marketCard(record: Record<string, unknown>, ctx: CardContext): EntityValue {
  const { host } = ctx;
  const slug = str(record.market_slug) ?? str(record._canonical_slug) ?? '';
  const name = str(record.market_name) ?? slug;
  const url = str(record.cite_url) ?? str(record.url) ?? `https://dchub.cloud/dcpi${slug ? `/${slug}` : ''}`;
  const cite = { attribution: [dcpiAttribution(url)] };
  const props: Record<string, CardValue> = {};
  for (const [k, format] of NUMBERS) if (has(record, k)) props[k] = withMetadata(number(record[k], format, host), cite);
  for (const k of TEXTS) if (has(record, k)) props[k] = withMetadata(text(record[k]), cite);
  for (const [k, as] of LISTS) if (has(record, k)) props[as] = withMetadata(listText(record[k]), cite);
  if (has(record, 'computed_at')) props.computed_at = withMetadata(date(record.computed_at, host), cite);
  const method = str(record.method_version);
  const verdict = str(record.verdict);
  const composite = shown(record.composite_score, 1);
  const where = [str(record.iso), str(record.state)].filter(Boolean).join(' · ');
  return topCard(
    {
      text: [name, verdict, composite].filter(Boolean).join(' · '),
      icon: 'City',
      id: slug,
      name,
      summary: [verdict ? `DCPI ${verdict}` : 'DCPI', where].filter(Boolean).join(' · '),
      properties: props,
      citation: `${DCPI_CITATION}${method ? `, method ${method}` : ''}.`,
      after: { url: text(url) },
      sections: SECTIONS,
      source: ['computed_at', 'method_version', 'citation', 'url'],
    },
    ctx,
  );
}

/** The leaderboard as market cards, best composite first (the service's order). */
export const leaderboardCards = (lb: DcpiLeaderboardT, ctx: CardContext): EntityValue[] =>
  lb.leaderboard.map((row) => marketCard(row as Record<string, unknown>, ctx));
