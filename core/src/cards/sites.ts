import type { SiteScoreT } from '../schemas/sites.js';
import { entity, topCard, type CardContext } from './entity.js';
import {
  blank,
  bool,
  number,
  shown,
  text,
  type CardHost,
  type CardValue,
  type EntityValue,
  type FormatName,
} from './values.js';

/**
 * Site cards: a location's site score — overall score and interpretation, location, the sub-scores,
 * fiber and nearby infrastructure as nested cards (`=A1.fiber.connectivity_score`), the capacity
 * context. The nearby counts derived from the facility inventory (`facilities_100km`,
 * `total_capacity_mw`), which carries no redistribution grant, stay out of the card. The source
 * travels as the attribution of the card's citation.
 */

/** Members of `nearby` a card may keep: the facility-inventory counts are left out (see above). */
const NEARBY: ReadonlyArray<[string, FormatName]> = [
  ['substations_50km', 'count'],
  ['gas_pipelines_50km', 'count'],
  ['power_plants_80km', 'count'],
  ['generation_capacity_mw', 'mw'],
  ['fiber_carriers_in_state', 'count'],
];
export const SITE_CARD_LEAVES_OUT = ['nearby.facilities_100km', 'nearby.total_capacity_mw'] as const;

const FIBER: ReadonlyArray<[string, FormatName]> = [
  ['connectivity_score', 'score'],
  ['carrier_count', 'count'],
  ['nearest_carrier_km', 'km'],
];

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (r: Rec, k: string) => Object.prototype.hasOwnProperty.call(r, k);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

function numbers(r: Rec, spec: ReadonlyArray<[string, FormatName]>, host: CardHost): Record<string, CardValue> {
  const out: Record<string, CardValue> = {};
  for (const [k, f] of spec) if (has(r, k)) out[k] = number(r[k], f, host);
  return out;
}

/** A nested card (no provider: the top-level card names it). */
function nested(
  name: string,
  label: string,
  icon: string,
  properties: Record<string, CardValue>,
  host: CardHost,
  table = false,
): EntityValue {
  return entity(
    {
      text: label,
      icon,
      properties: { name: text(name), ...properties },
      sections: [{ properties: Object.keys(properties), layout: table ? 'Table' : 'List' }],
    },
    host,
  );
}

function scoresCard(scores: Rec, host: CardHost): EntityValue {
  const props: Record<string, CardValue> = {};
  for (const [k, v] of Object.entries(scores)) props[k] = number(v, 'score', host);
  return nested('Sub-scores', 'Sub-scores (0-100)', 'DataHistogram', props, host, true);
}

function fiberCard(fiber: Rec, host: CardHost): EntityValue {
  const carriers = Array.isArray(fiber.top_carriers)
    ? fiber.top_carriers
        .filter(isRec)
        .map((c) =>
          [str(c.carrier), typeof c.distance_km === 'number' ? `${shown(c.distance_km, 1)} km` : undefined]
            .filter(Boolean)
            .join(' '),
        )
        .join('; ')
    : undefined;
  const props: Record<string, CardValue> = {
    ...numbers(fiber, FIBER, host),
    ...(has(fiber, 'basis') ? { basis: text(fiber.basis) } : {}),
    ...(has(fiber, 'near_net_bucket') ? { near_net_bucket: text(fiber.near_net_bucket) } : {}),
    ...(has(fiber, 'single_carrier_risk') ? { single_carrier_risk: bool(fiber.single_carrier_risk) } : {}),
    ...(carriers !== undefined ? { top_carriers: text(carriers) } : {}),
  };
  const score = shown(fiber.connectivity_score, 1);
  return nested(
    'Fiber',
    ['Fiber', score, str(fiber.near_net_bucket)].filter(Boolean).join(' · '),
    'Connector',
    props,
    host,
  );
}

function nearbyCard(nearby: Rec, host: CardHost): EntityValue {
  const props = numbers(nearby, NEARBY, host);
  const subs = shown(nearby.substations_50km, 0);
  return nested('Nearby', subs ? `Nearby · ${subs} substations within 50 km` : 'Nearby', 'Radar', props, host, true);
}

function capacityCard(c: Rec, host: CardHost): EntityValue {
  const props: Record<string, CardValue> = {
    ...(has(c, 'affects_overall_score') ? { affects_overall_score: bool(c.affects_overall_score) } : {}),
    ...(has(c, 'basis') ? { basis: text(c.basis) } : {}),
    ...(has(c, 'instead') ? { instead: text(c.instead) } : {}),
  };
  return nested('Capacity context', 'Capacity context', 'Lightbulb', props, host);
}

/** A point as the card names it: `39.04, -77.49`. */
const point = (lat: unknown, lon: unknown) =>
  `${typeof lat === 'number' ? lat : '?'}, ${typeof lon === 'number' ? lon : '?'}`;

/** One site's card from its site-score answer. */
export function siteCard(s: SiteScoreT, ctx: CardContext): EntityValue {
  const { host } = ctx;
  const r = s as Rec;
  const { lat, lon, state } = s.location;
  const where = point(lat, lon);
  const band = str(r.verdict_band) ?? str(s.interpretation);
  const source = str(s.source) ?? 'DC Hub Site Intelligence';
  const props: Record<string, CardValue> = {
    overall_score: number(s.overall_score, 'score', host),
    interpretation: text(s.interpretation),
    ...(has(r, 'verdict_band') ? { verdict_band: text(r.verdict_band) } : {}),
    ...(has(r, 'capacity_requested_mw') ? { capacity_requested_mw: number(s.capacity_requested_mw, 'mw', host) } : {}),
    lat: number(lat, 'degrees', host),
    lon: number(lon, 'degrees', host),
    state: state === undefined ? blank() : text(state),
    ...(isRec(s.scores) ? { scores: scoresCard(s.scores, host) } : {}),
    ...(isRec(s.fiber) ? { fiber: fiberCard(s.fiber, host) } : {}),
    ...(isRec(s.nearby) ? { nearby: nearbyCard(s.nearby, host) } : {}),
    ...(isRec(s.capacity_context) ? { capacity_context: capacityCard(s.capacity_context, host) } : {}),
  };
  return topCard(
    {
      text: [where, band, shown(s.overall_score, 1)].filter(Boolean).join(' · '),
      icon: 'MapPin',
      id: `${lat},${lon}`,
      name: `Site ${where}${str(state) ? ` (${state})` : ''}`,
      summary: band ?? 'Site score',
      properties: { ...props, source: text(source) },
      // The answer states no licence: the source is named, none is claimed.
      citation: `${source}, DC Hub, dchub.cloud.`,
      attribution: [{ sourceText: `${source}, dchub.cloud`, sourceAddress: 'https://dchub.cloud' }],
      sections: [
        { headline: true, properties: ['overall_score', 'interpretation', 'verdict_band', 'capacity_requested_mw'] },
        { title: 'Location', properties: ['lat', 'lon', 'state'] },
        { title: 'Scores', properties: ['scores'] },
        { title: 'Fiber', properties: ['fiber'] },
        { title: 'Nearby', properties: ['nearby'] },
        { title: 'Capacity', properties: ['capacity_context'] },
      ],
      source: ['source', 'citation'],
    },
    ctx,
  );
}
