import { nestingDepth } from '../args.js';
import { ValidationError } from '../errors.js';
import { readSiteScore } from '../read/sites.js';
import { resource, withoutUndefined } from '../resource.js';
import { ParcelAnalysis, ParcelArgs, ParcelRequest, type ParcelAnalysisT } from '../schemas/parcel.js';
import { RankedSites, RankSitesArgs, RankSitesRequest, type RankedSitesT } from '../schemas/ranking.js';
import { SiteScore, SiteScoreQuery, siteScoreAliases } from '../schemas/sites.js';
import { parseParams } from '../validate.js';

/** Scores a location (spec §2.3). Sends both `capacity_mw` and the real service's `capacity`. */
export const siteScoreEndpoint = resource(
  { method: 'get', path: '/api/site-score', query: SiteScoreQuery, response: SiteScore },
  {
    reader: readSiteScore,
    request: (input, e) => {
      const q = parseParams(SiteScoreQuery, siteScoreAliases({ ...input }));
      const capacity = q.capacity_mw;
      const params = new URLSearchParams({ lat: String(q.lat), lon: String(q.lon) });
      if (q.state) params.set('state', q.state);
      if (capacity !== undefined) {
        params.set('capacity_mw', String(capacity));
        params.set('capacity', String(capacity));
      }
      return { path: e.path, params, parsed: q };
    },
    citation: (s) => {
      const source = (s as { source?: unknown }).source;
      return typeof source === 'string' && source
        ? `DC Hub site score (${source}), dchub.cloud`
        : 'DC Hub site score, dchub.cloud';
    },
    note: (s) => s.interpretation ?? undefined,
  },
);

/** Members of a ranked site that are not columns of the ranking (objects, or the hand-off). */
const NOT_COLUMNS = new Set(['normalized', 'missing_objectives', 'site_evaluation_handoff']);

/** The objectives a ranking was asked for (names or `{name: weight}`), else those the answer normalized. */
function objectivesOf(r: RankedSitesT, asked: unknown): string[] {
  if (Array.isArray(asked)) return asked.map(String);
  if (asked && typeof asked === 'object') return Object.keys(asked);
  return Object.keys(r.normalization_basis ?? {});
}

/** A ranked site as a row: rank, id, objective score, each objective's value and normalized score, then the rest. */
function rankedRow(site: RankedSitesT['results'][number], objectives: readonly string[]): Record<string, unknown> {
  const rec = site as Record<string, unknown>;
  const row: Record<string, unknown> = { rank: rec.rank, id: rec.id, objective_score: rec.objective_score };
  for (const o of objectives) row[o] = rec[o];
  for (const o of objectives) row[`norm_${o}`] = site.normalized?.[o];
  for (const [k, v] of Object.entries(rec))
    if (!(k in row) && !NOT_COLUMNS.has(k) && (v === null || typeof v !== 'object')) row[k] = v;
  return row;
}

/** Rows' scalar members beyond the named columns, in first-seen order. */
function extraColumns(rows: readonly Record<string, unknown>[], named: readonly string[]): string[] {
  const seen = new Set(named);
  const extra: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!seen.has(k) && (seen.add(k), true)) extra.push(k);
  return extra;
}

/**
 * POST /api/v1/rank-sites (spec §4.4), a pure computation (the same body is answered from the cache):
 * the body as its schema reads it, `mode` as the `absolute`/`percentile` flags. The table: rank, id,
 * objective score, each asked objective's raw value and normalized score (`norm_<field>`), then the
 * candidates' other scalar fields. The caveats, objectives not scored and candidates left out are
 * the answer's `explanations`.
 */
export const rankSitesEndpoint = resource(
  {
    method: 'post',
    path: '/api/v1/rank-sites',
    body: RankSitesRequest,
    response: RankedSites,
    cacheable: true,
    input: RankSitesArgs,
  },
  {
    request: ({ mode, ...rest }, e) => {
      const given = withoutUndefined({
        ...rest,
        ...(mode === 'absolute' ? { absolute: true } : {}),
        ...(mode === 'percentile' ? { percentile: true } : {}),
      });
      const parsed = parseParams(RankSitesRequest, given);
      // The members given, as the schema read them; those left out are the service's defaults.
      const body = Object.fromEntries(Object.keys(given).map((k) => [k, parsed[k as keyof typeof parsed]]));
      return { path: e.path, body, parsed };
    },
    table: {
      rows: (r, input) => r.results.map((site) => rankedRow(site, objectivesOf(r, input?.objectives))),
      columns: ['rank', 'id', 'objective_score'],
      columnsFor: (rows, r, input) => {
        const objectives = objectivesOf(r, input?.objectives);
        const named = ['rank', 'id', 'objective_score', ...objectives, ...objectives.map((o) => `norm_${o}`)];
        return [...named, ...extraColumns(rows, named)];
      },
    },
  },
);

/**
 * A MultiPolygon nests 5 deep (object, coordinates, polygon, ring, position); 8 leaves room for members such as `crs`.
 */
export const PARCEL_MAX_NESTING = 8;

/**
 * The geometry of what a user gives for a parcel: GeoJSON text or a value, a Feature's `geometry`
 * unwrapped (its properties are not sent). Refuses (naming `name`) text that is not JSON and a
 * geometry nested deeper than any Polygon or MultiPolygon (`PARCEL_MAX_NESTING`), before anything
 * walks it.
 */
export function parcelGeometry(input: unknown, name = 'geometry'): unknown {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new ValidationError(name, 'is not valid JSON');
    }
  }
  const wrapped =
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, 'geometry');
  const geometry = wrapped ? (value as { geometry: unknown }).geometry : value;
  const depth = nestingDepth(geometry);
  if (depth > PARCEL_MAX_NESTING) {
    throw new ValidationError(
      name,
      `is nested ${depth > 1000 ? 'over 1,000' : depth} levels deep; a Polygon or MultiPolygon needs at most ${PARCEL_MAX_NESTING}`,
    );
  }
  return geometry;
}

/** A parcel analysis as one record: its members numbered (members.0.acres, ...), last; private members left out. */
function parcelRecord(p: ParcelAnalysisT): Record<string, unknown> {
  const { members, ...rest } = p;
  const head = Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith('_') && k !== 'note'));
  return { ...head, members: Object.fromEntries(members.map((m, i) => [String(i), m])) };
}

/**
 * POST /api/v1/analyze-parcel with a GeoJSON Polygon or MultiPolygon (spec §4.3), as a value, a
 * Feature or GeoJSON text (parcelGeometry); a pure computation. The geometry is sent as given once
 * its schema accepted it (the schema reads it into rings, the service's own form).
 */
export const analyzeParcelEndpoint = resource(
  {
    method: 'post',
    path: '/api/v1/analyze-parcel',
    body: ParcelRequest,
    response: ParcelAnalysis,
    cacheable: true,
    input: ParcelArgs,
  },
  {
    request: (input, e) => {
      const geometry = parcelGeometry(input.geometry);
      const parsed = parseParams(ParcelRequest, { geometry, capacity_mw: input.capacity_mw });
      const capacity = parsed.capacity_mw;
      return { path: e.path, body: { geometry, ...(capacity !== undefined ? { capacity_mw: capacity } : {}) }, parsed };
    },
    record: parcelRecord,
    note: (p) => (p as { note?: string }).note,
  },
);
