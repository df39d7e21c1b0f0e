import { readFile, stat } from 'node:fs/promises';
import { chainCost, runChain } from '../chain.js';
import { fetchMeta } from '../call.js';
import { ValidationError } from '../errors.js';
import { suggestedMaxTtp } from '../notes.js';
import { analyzeParcel, parcelGeometry } from '../parcel.js';
import { QUEUE_COLUMNS, refineQueue } from '../queue.js';
import { parseConstraints, parseObjectives, parseScoringMode } from '../ranking-args.js';
import { rankSites } from '../ranking.js';
import type { RankedSitesT } from '../schemas/ranking.js';
import { QUEUE_PREDICATES, type QueueFiltersInput } from '../schemas/queue.js';
import { siteScore } from '../sites.js';
import type { SiteScoreQueryInput } from '../schemas/sites.js';
import { citationOf, recordAnswer, tableAnswer, type NotebookAnswer } from './answer.js';
import { positiveNumber, wholeNumber, type MethodContext } from './context.js';

/** The refined queue's survivors (spec §4.2), through the derive setting. */
export async function queue(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const filters = Object.fromEntries(QUEUE_PREDICATES.map((k) => [k, args[k]])) as QueueFiltersInput;
  const r = await refineQueue(ctx.client, filters, ctx.call);
  const rows = r.results.map((x) => {
    const raw = x as Record<string, unknown>;
    return { ...raw, lng: raw.lng ?? raw.lon, capacity_mw: raw.capacity_mw ?? raw.capacity };
  });
  // What the service explains (excluded ISOs, the hint) is the answer's `explanations`; the note says them too.
  const said = fetchMeta(r)?.explanations ?? [];
  return tableAnswer(
    rows,
    QUEUE_COLUMNS,
    r,
    {
      path: '/api/v1/interconnection-queue/refined',
      citation: citationOf(r),
      asOf: typeof r.snapshot_id === 'string' && r.snapshot_id.startsWith('snap_') ? r.snapshot_id.slice(5) : null,
      note: said.length ? said.join(' ') : null,
      extra: {
        count_total_matching: r.count_total_matching ?? null,
        suggested_max_ttp_months: suggestedMaxTtp(r) ?? null,
      },
    },
    { only: true },
  );
}

/** One location's score (spec §2.3): the overall score and every member. */
export async function siteScoreAnswer(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const query = {
    lat: args.lat,
    lon: args.lon,
    capacity_mw: args.capacity_mw,
    state: args.state,
  } as SiteScoreQueryInput;
  const s = await siteScore(ctx.client, query, ctx.call);
  const source = (s as { source?: unknown }).source;
  return recordAnswer(s, s, {
    path: '/api/site-score',
    citation:
      typeof source === 'string' && source
        ? `DC Hub site score (${source}), dchub.cloud`
        : 'DC Hub site score, dchub.cloud',
    note: s.interpretation ?? null,
  });
}

/** The ranked sites as a frame: rank, id, score, each objective, its normalized value, then the rest. */
function rankedAnswer(
  r: RankedSitesT,
  weights: Record<string, number>,
  more: { note?: string; citation?: string; explanations?: string[] } = {},
): NotebookAnswer {
  const objectives = Object.keys(weights);
  const rows = r.results.map((site) => {
    const rec = site as Record<string, unknown>;
    const row: Record<string, unknown> = { rank: rec.rank, id: rec.id, objective_score: rec.objective_score };
    for (const o of objectives) row[o] = rec[o];
    for (const o of objectives) row[`norm_${o}`] = site.normalized?.[o];
    for (const [k, v] of Object.entries(rec)) {
      if (
        !(k in row) &&
        !['normalized', 'missing_objectives', 'site_evaluation_handoff'].includes(k) &&
        (v === null || typeof v !== 'object')
      )
        row[k] = v;
    }
    return row;
  });
  // What the service explains (caveats, objectives not scored, candidates left out), also as the note.
  const explanations = more.explanations ?? fetchMeta(r)?.explanations ?? [];
  return tableAnswer(rows, ['rank', 'id', 'objective_score', ...objectives, ...objectives.map((o) => `norm_${o}`)], r, {
    path: '/api/v1/rank-sites',
    citation: more.citation ?? citationOf(r),
    note: [...explanations, more.note].filter(Boolean).join(' ') || null,
    explanations,
    // The weights, so a chart can split each score into the objectives' contributions.
    extra: { scoring_mode: r.scoring_mode ?? null, objectives: weights ?? null },
  });
}

/** Candidates as records: `lon` read as `lng`, blanks left out. */
function candidatesOf(v: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(v)) throw new ValidationError('candidates', 'must be a non-empty list of candidate objects');
  return v
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, x]) => [k === 'lon' ? 'lng' : k, x])));
}

/** Ranks candidate sites (spec §4.4); objectives as `{field: weight}` or `"field:weight,…"`. */
export async function rank(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const candidates = candidatesOf(args.candidates);
  if (!candidates.length) throw new ValidationError('candidates', 'must be a non-empty list of candidate objects');
  const objectives = parseObjectives(args.objectives);
  const r = await rankSites(
    ctx.client,
    {
      candidates,
      objectives,
      constraints: parseConstraints(args.constraints),
      mode: parseScoringMode(args.mode),
      top_k: args.top_k as number | undefined,
    },
    ctx.call,
  );
  return rankedAnswer(r, objectives);
}

/** Queue → site score → ranking within today's calls, with progress. */
export async function chain(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const input = {
    filters: {
      iso: args.iso,
      min_mw: args.min_mw,
      max_ttp_months: args.max_ttp_months,
      geocoded_only: true,
    } as QueueFiltersInput,
    objectives: parseObjectives(args.objectives),
    constraints: parseConstraints(args.constraints),
    mode: parseScoringMode(args.mode),
    top_k: wholeNumber(args, 'top_k', 1),
    maxSites: wholeNumber(args, 'max_sites', 1),
    budget: wholeNumber(args, 'budget', 0),
  };
  const cost = await chainCost(ctx.client, input);
  ctx.progress(
    `the chain costs at most ${cost.worstCase} calls; ${cost.remaining ?? 'an unknown number of calls (the service has not stated your allowance)'} left today`,
  );
  const r = await runChain(ctx.client, input, (p) => ctx.progress(`[${p.step}] ${p.message}`));
  const skipped = r.skippedForBudget
    ? `${r.skippedForBudget} survivors not scored to stay within the budget of ${input.budget ?? cost.remaining} calls.`
    : undefined;
  return rankedAnswer(r.ranked, input.objectives, {
    note: skipped,
    citation: r.table.citation,
    explanations: r.explanations,
  });
}

/** A geometry given as a value, GeoJSON text or the path of a GeoJSON file; a FeatureCollection's first feature. */
async function geometryArg(v: unknown): Promise<unknown> {
  let g = v;
  if (typeof v === 'string' && !v.trimStart().startsWith('{')) {
    const isFile = await stat(v).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile) throw new ValidationError('geometry', 'is neither GeoJSON text nor a readable GeoJSON file');
    g = await readFile(v, 'utf8');
  }
  if (typeof g === 'string') g = parcelGeometry(g);
  const fc = g as { type?: unknown; features?: unknown } | null;
  if (fc && typeof fc === 'object' && fc.type === 'FeatureCollection')
    g = Array.isArray(fc.features) ? (fc.features[0] as unknown) : undefined;
  return g;
}

/** Acreage, representative point and site hand-off of a GeoJSON Polygon or MultiPolygon (spec §4.3). */
export async function parcel(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const capacity = positiveNumber(args, 'capacity_mw');
  const p = await analyzeParcel(ctx.client, await geometryArg(args.geometry), capacity, ctx.call);
  return recordAnswer(p, p, {
    path: '/api/v1/analyze-parcel',
    citation: citationOf(p),
    note: (p as { note?: string }).note ?? null,
  });
}
