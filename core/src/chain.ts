import type { DchubClient } from './client.js';
import { fetchMeta } from './call.js';
import { NotFoundError, QuotaSpentError } from './errors.js';
import { refineQueue } from './queue.js';
import { rankSites, rankedTable, type ScoringMode } from './ranking.js';
import type { QueueFiltersInput, QueueRecordT } from './schemas/queue.js';
import type { RankedSitesT } from './schemas/ranking.js';
import { siteScore, SITE_SCORE_PATH } from './sites.js';
import type { Table } from './table.js';

/** Metrics each scored survivor carries into the ranking. */
export const CHAIN_METRICS = [
  'overall_score',
  'power_infrastructure',
  'gas_pipeline_access',
  'fiber_connectivity',
  'market_conditions',
  'risk_resilience',
  'capacity_mw',
  'fiber_km',
  'estimated_ttp_months',
  'substations_50km',
] as const;

export interface ChainInput {
  filters: QueueFiltersInput;
  objectives: Record<string, number>;
  constraints?: Record<string, { min?: number; max?: number }>;
  mode?: ScoringMode;
  top_k?: number;
  /** Score at most this many survivors (default 20). */
  maxSites?: number;
  /** Calls this run may spend (default: what the ledger has left today). */
  budget?: number;
}

export interface ChainProgress {
  step: 'queue' | 'score' | 'rank' | 'done';
  done: number;
  total: number;
  message: string;
}

export interface ChainCost {
  /** Calls if nothing is cached: 1 queue + one score per site + 1 ranking. */
  worstCase: number;
  /** Calls left today, when the service has stated the allowance. */
  remaining: number | undefined;
  affordable: boolean;
}

/** Calls left today when the service stated the allowance; undefined when it is only assumed (never a budget). */
async function knownRemaining(client: DchubClient): Promise<number | undefined> {
  if (!client.ledger) return undefined;
  const snap = await client.ledger.snapshot();
  return snap.confirmed ? snap.remaining : undefined;
}

/** What a chain run will cost against today's allowance, before any call is made. */
export async function chainCost(
  client: DchubClient,
  input: Pick<ChainInput, 'maxSites' | 'budget'>,
): Promise<ChainCost> {
  const sites = input.maxSites ?? 20;
  const worstCase = 1 + sites + 1;
  const remaining = await knownRemaining(client);
  const budget = input.budget ?? remaining ?? Infinity;
  return { worstCase, remaining, affordable: worstCase <= budget };
}

export interface ChainResult {
  table: Table;
  ranked: RankedSitesT;
  scored: number;
  skippedForBudget: number;
  callsSpent: number;
  /**
   * What the service explained along the way, one line each: the queue's (ISOs a time-to-power cut
   * excluded), then the ranking's (objectives not scored, caveats). Hosts show them with the table.
   */
  explanations: string[];
}

/**
 * The chain of spec §1: refine the queue, score each geocoded survivor through its
 * `site_evaluation_handoff`, rank the scored candidates. Cached answers cost nothing; the run
 * stops scoring before it would exceed its budget (keeping one call for the ranking).
 */
export async function runChain(
  client: DchubClient,
  input: ChainInput,
  onProgress: (p: ChainProgress) => void = () => {},
): Promise<ChainResult> {
  const start = client.requestsSent;
  const spent = () => client.requestsSent - start;
  const budget = input.budget ?? (await knownRemaining(client)) ?? Infinity;
  if (budget < 1) throw new QuotaSpentError(0, 'the next UTC midnight');
  onProgress({ step: 'queue', done: 0, total: 1, message: 'refining the interconnection queue' });
  const queue = await refineQueue(client, input.filters);
  const survivors = queue.results.filter((r) => r.site_evaluation_handoff?.analyze_site).slice(0, input.maxSites ?? 20);
  const queueSaid = fetchMeta(queue)?.explanations ?? [];
  if (!survivors.length) {
    // Nothing to score: the queue's own explanation (a time-to-power cut, its hint), never a generic reason.
    const none = new NotFoundError(
      'no queued project with coordinates survives these filters: nothing to score or rank',
    );
    none.explanations = [...queueSaid];
    throw none;
  }
  const candidates: Array<Record<string, unknown>> = [];
  let skipped = 0;
  for (const [i, s] of survivors.entries()) {
    const args = s.site_evaluation_handoff!.analyze_site;
    const q = { lat: args.lat, lon: args.lon, capacity_mw: args.capacity_mw };
    const free = client.isFresh(
      SITE_SCORE_PATH,
      new URLSearchParams({
        lat: String(q.lat),
        lon: String(q.lon),
        ...(q.capacity_mw !== undefined ? { capacity_mw: String(q.capacity_mw), capacity: String(q.capacity_mw) } : {}),
      }),
    );
    if (!free && spent() + 2 > budget) {
      skipped = survivors.length - i;
      break;
    }
    onProgress({
      step: 'score',
      done: i,
      total: survivors.length,
      message: `scoring ${s.queue_id} (${i + 1} of ${survivors.length})`,
    });
    const score = await siteScore(client, q);
    candidates.push(candidateOf(s, score));
  }
  if (!candidates.length) throw new QuotaSpentError(budget, 'the next UTC midnight');
  onProgress({ step: 'rank', done: 0, total: 1, message: `ranking ${candidates.length} scored sites` });
  const ranked = await rankSites(client, {
    candidates,
    objectives: input.objectives,
    constraints: input.constraints,
    mode: input.mode,
    top_k: input.top_k,
  });
  onProgress({ step: 'done', done: 1, total: 1, message: `ranked ${ranked.count_ranked} sites with ${spent()} calls` });
  const table = rankedTable(ranked, Object.keys(input.objectives));
  if (skipped)
    table.note = [table.note, `${skipped} survivors not scored to stay within the budget of ${budget} calls.`]
      .filter(Boolean)
      .join(' ');
  table.citation ??= queue._cite;
  const rankSaid = fetchMeta(ranked)?.explanations ?? [];
  const explanations = [...new Set([...queueSaid, ...rankSaid])];
  return { table, ranked, scored: candidates.length, skippedForBudget: skipped, callsSpent: spent(), explanations };
}

function candidateOf(s: QueueRecordT, score: Awaited<ReturnType<typeof siteScore>>): Record<string, unknown> {
  return {
    id: s.queue_id,
    candidate_id: s.candidate_id,
    project_name: s.project_name,
    iso: s.iso,
    state: s.state,
    lat: s.lat,
    lng: s.lng,
    capacity_mw: s.capacity_mw,
    fiber_km: s.fiber_km,
    estimated_ttp_months: s.estimated_ttp_months,
    overall_score: score.overall_score,
    ...(score.scores ?? {}),
    substations_50km: score.nearby?.substations_50km,
    site_evaluation_handoff: s.site_evaluation_handoff,
  };
}
