import { readFile, stat } from 'node:fs/promises';
import { chainCost, runChain } from '../chain.js';
import { fetchMeta } from '../call.js';
import { ENDPOINTS } from '../endpoints.js';
import { ValidationError } from '../errors.js';
import { suggestedMaxTtp } from '../notes.js';
import { parcelGeometry } from '../parcel.js';
import { parseConstraints, parseObjectives, parseScoringMode } from '../ranking-args.js';
import { shapeAnswer } from '../resource.js';
import { call } from '../resource-call.js';
import type { RankedSitesT } from '../schemas/ranking.js';
import { foldQueueSpellings, QUEUE_PREDICATES, type QueueFiltersInput } from '../schemas/queue.js';
import type { SiteScoreQueryInput } from '../schemas/sites.js';
import { shapedAnswer, type NotebookAnswer } from './answer.js';
import { positiveNumber, wholeNumber, type MethodContext } from './context.js';

/** The refined queue's survivors (spec §4.2), through the derive setting. */
export async function queue(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const filters = Object.fromEntries(QUEUE_PREDICATES.map((k) => [k, args[k]])) as QueueFiltersInput;
  const a = await call(ctx.client, ENDPOINTS.queue, filters, ctx.call);
  // What the service explains (excluded ISOs, the hint) is the answer's `explanations`; the note says them too.
  const said = a.meta.explanations ?? [];
  return shapedAnswer(a, {
    note: said.length ? said.join(' ') : null,
    extra: {
      count_total_matching: a.data.count_total_matching ?? null,
      suggested_max_ttp_months: suggestedMaxTtp(a.data) ?? null,
    },
  });
}

/** One location's score (spec §2.3): the overall score and every member. */
export async function siteScoreAnswer(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const query = {
    lat: args.lat,
    lon: args.lon,
    capacity_mw: args.capacity_mw,
    state: args.state,
  } as SiteScoreQueryInput;
  return shapedAnswer(await call(ctx.client, ENDPOINTS.siteScore, query, ctx.call));
}

/**
 * The ranked sites as a frame (the ranking's shape: rank, id, score, each objective, its normalized
 * value, then the rest); what the service explains is also the note.
 */
function rankedAnswer(
  r: RankedSitesT,
  weights: Record<string, number>,
  more: { note?: string; citation?: string; explanations?: string[] } = {},
): NotebookAnswer {
  const meta = fetchMeta(r);
  const explanations = more.explanations ?? meta?.explanations ?? [];
  const shaped = shapeAnswer(ENDPOINTS.rankSites, r, { objectives: weights });
  return shapedAnswer(
    { meta, path: ENDPOINTS.rankSites.path, shaped },
    {
      ...(more.citation ? { citation: more.citation } : {}),
      note: [...explanations, more.note].filter(Boolean).join(' ') || null,
      explanations,
      // The weights, so a chart can split each score into the objectives' contributions.
      extra: { scoring_mode: r.scoring_mode ?? null, objectives: weights ?? null },
    },
  );
}

/** Candidates as records (the queue's spellings folded: `lon` read as `lng`), blanks left out. */
function candidatesOf(v: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(v)) throw new ValidationError('candidates', 'must be a non-empty list of candidate objects');
  return v
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
    .map(foldQueueSpellings);
}

/** Ranks candidate sites (spec §4.4); objectives as `{field: weight}` or `"field:weight,…"`. */
export async function rank(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const candidates = candidatesOf(args.candidates);
  if (!candidates.length) throw new ValidationError('candidates', 'must be a non-empty list of candidate objects');
  const objectives = parseObjectives(args.objectives);
  const a = await call(
    ctx.client,
    ENDPOINTS.rankSites,
    {
      candidates,
      objectives,
      constraints: parseConstraints(args.constraints),
      mode: parseScoringMode(args.mode),
      top_k: args.top_k as number | undefined,
    },
    ctx.call,
  );
  return rankedAnswer(a.data, objectives);
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
  const geometry = await geometryArg(args.geometry);
  return shapedAnswer(await call(ctx.client, ENDPOINTS.analyzeParcel, { geometry, capacity_mw: capacity }, ctx.call));
}
