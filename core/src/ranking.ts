import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { RankSitesRequest, RankedSites, type RankedSitesT } from './schemas/ranking.js';
import { cell, type Cell, type Table } from './table.js';
import { parseParams } from './validate.js';

export const RANK_SITES_PATH = ENDPOINTS.rankSites.path;

export type ScoringMode = 'relative' | 'absolute' | 'percentile';

type RankSitesBody = z.input<typeof RankSitesRequest>;

/** The request body's fields, with `mode` in place of the `absolute`/`percentile` flags. */
export interface RankSitesInput {
  candidates: RankSitesBody['candidates'];
  /** field → signed weight: + maximizes, − minimizes. */
  objectives: RankSitesBody['objectives'];
  constraints?: RankSitesBody['constraints'];
  mode?: ScoringMode;
  top_k?: RankSitesBody['top_k'];
}

/** POST /api/v1/rank-sites (spec §4.4). Arguments are checked first, so a bad one spends nothing. */
export async function rankSites(
  client: DchubClient,
  input: RankSitesInput,
  opts: CallOptions = {},
): Promise<RankedSitesT> {
  const body = {
    candidates: input.candidates,
    objectives: input.objectives,
    ...(input.constraints ? { constraints: input.constraints } : {}),
    ...(input.mode === 'absolute' ? { absolute: true } : {}),
    ...(input.mode === 'percentile' ? { percentile: true } : {}),
    ...(input.top_k !== undefined ? { top_k: input.top_k } : {}),
  };
  parseParams(RankSitesRequest, body);
  return client.postJson(RANK_SITES_PATH, body, RankedSites, { ...opts, cacheable: true });
}

/**
 * Ranked sites as a table: rank, id, objective score, each objective's raw value and normalized
 * score (`norm_<field>`), then the candidates' other scalar fields.
 */
export function rankedTable(
  r: RankedSitesT,
  objectives: readonly string[] = Object.keys(r.normalization_basis ?? {}),
): Table {
  const lead = ['rank', 'id', 'objective_score'];
  const norm = objectives.map((o) => `norm_${o}`);
  const seen = new Set([...lead, ...objectives, 'normalized', 'missing_objectives', 'site_evaluation_handoff']);
  const extra: string[] = [];
  for (const row of r.results) {
    for (const [k, v] of Object.entries(row)) {
      if (!seen.has(k) && (v === null || typeof v !== 'object')) {
        seen.add(k);
        extra.push(k);
      }
    }
  }
  const columns = [...lead, ...objectives, ...norm, ...extra];
  const rows: Cell[][] = r.results.map((row) => {
    const rec = row as Record<string, unknown>;
    return [
      cell(rec.rank),
      cell(rec.id),
      cell(rec.objective_score),
      ...objectives.map((o) => cell(rec[o])),
      ...objectives.map((o) => cell(row.normalized?.[o])),
      ...extra.map((k) => cell(rec[k])),
    ];
  });
  // The caveats, objectives not scored and candidates left out are `fetchMeta(r).explanations`.
  return { columns, rows, citation: r._cite ?? r.citation?.cite_as };
}
