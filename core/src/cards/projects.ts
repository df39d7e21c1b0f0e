import { QUEUE_COLUMNS } from '../queue.js';
import type { QueueRecordT, QueueResultT } from '../schemas/queue.js';
import { entity, topCard, type CardContext } from './entity.js';
import {
  bool,
  date,
  number,
  shown,
  text,
  type Attribution,
  type CardHost,
  type CardValue,
  type EntityValue,
  type FormatName,
} from './values.js';

/**
 * Project cards: one interconnection-queue survivor each — its name and MW as the cell's text,
 * every queue field of the QUEUE table under the same names, and the site-evaluation hand-off
 * (the analyze_site arguments for the project's point) as a nested card. The answer's licence
 * and source travel as the attribution of the card's citation.
 */

/** The QUEUE table's columns with a number format; `queue_date` is a date, the rest text. */
const FORMATS_OF: Partial<Record<(typeof QUEUE_COLUMNS)[number], FormatName>> = {
  capacity_mw: 'mw',
  estimated_ttp_months: 'months',
  fiber_km: 'km',
  lat: 'degrees',
  lng: 'degrees',
};

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (r: Rec, k: string) => Object.prototype.hasOwnProperty.call(r, k);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A record of arguments (the hand-off's analyze_site, get_water_risk) as a nested card. */
function argsCard(name: string, args: Rec, host: CardHost): EntityValue {
  const properties: Record<string, CardValue> = {};
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'boolean') properties[k] = bool(v);
    else if (typeof v === 'number')
      properties[k] = number(
        v,
        k === 'capacity_mw' ? 'mw' : k === 'lat' || k === 'lon' || k === 'lng' ? 'degrees' : 'score',
        host,
      );
    else if (typeof v === 'string') properties[k] = text(v);
  }
  const shownArgs = Object.entries(args)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  return entity(
    {
      text: `${name}(${shownArgs})`,
      icon: 'Code',
      properties: { name: text(name), ...properties },
      sections: [{ properties: Object.keys(properties) }],
    },
    host,
  );
}

function handoffCard(h: Rec, host: CardHost): EntityValue {
  const parts: Record<string, CardValue> = {};
  for (const [k, v] of Object.entries(h)) if (isRec(v)) parts[k] = argsCard(k, v, host);
  return entity(
    {
      text: 'Site evaluation hand-off',
      icon: 'Directions',
      properties: { name: text('Site evaluation hand-off'), ...parts },
      sections: [{ properties: Object.keys(parts) }],
    },
    host,
  );
}

/** The queue answer's licence and citation, carried by every property of its cards. */
function queueAttribution(r: QueueResultT): Attribution {
  const c = r.citation;
  const p = r.provenance;
  const licence = str(c?.license) ?? str(p?.license);
  return {
    sourceText: str(c?.cite_as) ?? str(p?.cite_as) ?? 'DC Hub, dchub.cloud',
    sourceAddress: str(c?.url) ?? 'https://dchub.cloud',
    ...(licence ? { licenseText: licence } : {}),
    ...(licence === 'CC-BY-4.0' ? { licenseAddress: 'https://creativecommons.org/licenses/by/4.0/' } : {}),
  };
}

/** One survivor's card. */
export function projectCard(p: QueueRecordT, r: QueueResultT, ctx: CardContext): EntityValue {
  const { host } = ctx;
  const rec = { ...p, lng: p.lng ?? (p as { lon?: number | null }).lon } as Rec;
  const props: Record<string, CardValue> = {};
  for (const k of QUEUE_COLUMNS) {
    if (!has(rec, k)) continue; // a member the service left out of this record
    const f = FORMATS_OF[k];
    props[k] = f ? number(rec[k], f, host) : k === 'queue_date' ? date(rec[k], host) : text(rec[k]);
  }
  if (isRec(rec.site_evaluation_handoff))
    props.site_evaluation_handoff = handoffCard(rec.site_evaluation_handoff, host);
  const name = str(p.project_name) ?? p.queue_id;
  const mw = shown(p.capacity_mw, 0);
  const about = [p.iso, str(p.state), str(p.fuel_type), str(p.queue_status)].filter(Boolean).join(' · ');
  const citation = str(r._cite) ?? 'Data: DC Hub (dchub.cloud), CC-BY-4.0';
  return topCard(
    {
      text: mw ? `${name} · ${mw} MW` : name,
      icon: 'Power',
      id: str(p.candidate_id) ?? p.queue_id,
      name,
      summary: about,
      properties: props,
      // The licence once per card, on its citation: a column of 1,000 cards stays within Excel on the web's 5 MB.
      citation: `${citation.replace(/[.\s]+$/, '')}.`,
      attribution: [queueAttribution(r)],
      sections: [
        {
          headline: true,
          properties: ['capacity_mw', 'queue_status', 'estimated_ttp_months', 'fuel_type', 'fuel_class'],
        },
        {
          title: 'Location',
          properties: ['state', 'county', 'poi_name', 'lat', 'lng', 'coordinate_precision', 'fiber_km'],
        },
        { title: 'Queue', properties: ['queue_id', 'iso', 'queue_date', 'project_name', 'candidate_id'] },
        { title: 'Site evaluation', properties: ['site_evaluation_handoff'] },
      ],
      source: ['citation'],
    },
    ctx,
  );
}

/** The survivors of a queue answer as cards, in the answer's order. */
export const projectCards = (r: QueueResultT, ctx: CardContext): EntityValue[] =>
  r.results.map((p) => projectCard(p, r, ctx));
