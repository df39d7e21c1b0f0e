/* global CustomFunctions */
import type { QueueFiltersInput } from '@dchub/core';
import { formula } from './load';

// custom-functions-metadata reads these values with JSON.parse: they keep their double quotes.
// prettier-ignore
/**
 * Scoring mode of RANK.
 * @customenum {string}
 */
enum RankMode {
  /** Min-max within the candidates (default) */
  relative = "relative",
  /** Fixed 0-100 scale, stable across runs */
  absolute = "absolute",
  /** Percentile against the viable-site population */
  percentile = "percentile",
}

/**
 * Header rows of a spilled table.
 * @customenum {number}
 */
enum HeaderRows {
  /** No header row */
  none = 0,
  /** A header row (default) */
  header = 1,
  /** A source/as-of row and a header row */
  source = 2,
}

/**
 * Ranks candidate sites by weighted objectives.
 * @customfunction RANK
 * @param candidates Candidate sites, 1-1000: each an id, lat, lng (lon accepted) and the metric fields the objectives
 * and constraints name. In Excel: a range with a header row (id, lat, lon and metric columns), or a range of site or
 * project cards.
 * @param objectives A signed non-zero weight per field: + maximizes, - minimizes. In Excel: a two-column range (field,
 * weight) or "field:weight,..." text.
 * @param [constraints] Bounds {min?, max?} per field: hard filters, fail-closed (a candidate missing the field is
 * dropped; a min above its max keeps none). In Excel: a range (field, min, max) or "field:min:max,..." text.
 * @param [mode] relative (default), absolute or percentile.
 * @param [top_k] Ranked candidates to return, 1-1000 (default 3).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns The ranked candidates.
 */
export function rank(
  candidates: unknown[][],
  objectives: unknown[][],
  constraints: unknown[][],
  mode: RankMode,
  top_k: unknown,
  headers: HeaderRows,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async (e) => {
    const {
      NotCachedError,
      rankSites,
      rankedTable,
      constraintsArg,
      objectivesArg,
      parseScoringMode,
      candidatesArg,
      callOptions,
      headerMode,
      optional,
      serviceClient,
      spillAnswer,
    } = e;
    const h = headerMode(headers);
    const m = parseScoringMode(mode);
    const recs = candidatesArg(candidates).map((r) => ({ ...r, lng: r.lng ?? r.lon }));
    const obj = objectivesArg(objectives);
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('RANK');
    const r = await rankSites(
      await serviceClient(),
      {
        candidates: recs,
        objectives: obj,
        constraints: constraintsArg(constraints),
        mode: m,
        top_k: optional(top_k) as number | undefined,
      },
      opts,
    );
    return spillAnswer(r, rankedTable(r, Object.keys(obj)), h);
  });
}

/**
 * Queue → site score → ranking in one formula, within the calls left today.
 * @customfunction CHAIN
 * @param iso Comma-separated union of PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE (ISONE accepted), any case. Blank for
 * all.
 * @param min_mw Minimum project capacity, MW.
 * @param max_ttp_months Keep ISOs whose average time to power is at or under this many months.
 * @param objectives A signed non-zero weight per field: + maximizes, - minimizes. In Excel: a two-column range (field,
 * weight) or "field:weight,..." text, e.g. "overall_score:1,fiber_km:-1".
 * @param [top_k] Ranked candidates to return, 1-1000 (default 3).
 * @param invocation Invocation (set by Excel).
 * @returns The ranked sites with queue fields, site scores and normalized objectives.
 */
export function chain(
  iso: unknown,
  min_mw: unknown,
  max_ttp_months: unknown,
  objectives: unknown[][],
  top_k: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async ({ NotCachedError, runChain, objectivesArg, optional, callOptions, serviceClient, spill }) => {
    const obj = objectivesArg(objectives);
    const opts = callOptions(invocation);
    if (opts.cacheOnly) throw new NotCachedError('CHAIN');
    // Cell values as Excel passes them: core's schemas read them and refuse a wrong one by name.
    const filters = { iso, min_mw, max_ttp_months, geocoded_only: true } as QueueFiltersInput;
    const r = await runChain(await serviceClient(), {
      filters,
      objectives: obj,
      top_k: optional(top_k) as number | undefined,
      maxSites: 10,
    });
    // What the service explained (the queue's cut, the ranking's caveats), then the run's cost.
    return spill(r.table, 1, {
      explanations: r.explanations,
      notes: [`${r.scored} sites scored with ${r.callsSpent} calls`],
    });
  });
}
