/**
 * What the pane's buttons do: service calls through the add-in's one client, and workbook writes
 * through `Excel.run` with the functions of ./excel. No DOM here.
 */
import {
  chainCost,
  fetchBriefsCsv,
  fetchBriefsDiff,
  fetchMeta,
  runChain,
  type ChainCost,
  type ChainInput,
  type ChainProgress,
  type DchubClient,
  type PagesProgress,
  type QueueFiltersInput,
} from '@dchub/core';
import { provenance } from '../functions/notes';
import { clearCellNotes } from '../shared/cell-notes';
import { noteFailure, noteSuccess } from '../shared/status';
import { fromTable, updateCharts } from './charts';
import { refreshBriefSheet, type BriefRefresh } from './brief-refresh';
import { findBriefTable, insertBriefSheet } from './brief-sheet';
import { recalculate, writeRankedSheet, type WrittenSheet } from './excel';

type Run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

/** Excel.run, or a clear error outside Excel (a plain browser tab). */
export const excelRun: Run = (batch) => {
  const excel = (globalThis as { Excel?: { run?: Run } }).Excel;
  if (!excel?.run) return Promise.reject(new Error('Open this pane in Excel to write sheets.'));
  return excel.run(batch);
};

/** Fails before any call is spent when the result could not be written (no Excel). */
function needExcel(run: Run): void {
  if (run === excelRun && !(globalThis as { Excel?: { run?: Run } }).Excel?.run)
    throw new Error('Open this pane in Excel to write sheets.');
}

async function tracked<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    const v = await fn();
    noteSuccess(what);
    return v;
  } catch (err) {
    noteFailure(what, err);
    throw err;
  }
}

/**
 * What the status line adds about an answer: the tolerant reader's warnings (a brief the service
 * failed to build, left out and named) and whether it was served stale from the cache.
 */
export interface AnswerNotes {
  warnings: string[];
  /** What the service explains about the answer (core's `fetchMeta(data).explanations`), a line each. */
  explanations: string[];
  /** "served from the cache (2 h old): service error", when the answer was not fresh from the service. */
  served?: string;
}

const notesOf = (data: unknown): AnswerNotes => {
  const meta = fetchMeta(data);
  const how = provenance(meta);
  return {
    warnings: meta?.warnings ?? [],
    explanations: meta?.explanations ?? [],
    ...(how ? { served: how.text } : {}),
  };
};

/** Downloads /all.csv (every page, through core) and inserts it as a brief sheet. */
export async function insertBriefs(
  client: DchubClient,
  run: Run = excelRun,
  onProgress?: (p: PagesProgress) => void,
): Promise<WrittenSheet & { asOf: string } & AnswerNotes> {
  needExcel(run);
  const csv = await tracked('brief CSV', () => fetchBriefsCsv(client, { onProgress }));
  const written = await run((ctx) => insertBriefSheet(ctx, csv.rows));
  return { ...written, ...notesOf(csv) };
}

/**
 * Refreshes the brief table (active sheet's, else the latest) through /diff since its stored
 * as-of, then the charts drawn from it; `charts` counts those whose numbers changed.
 */
export async function refreshBriefs(
  client: DchubClient,
  run: Run = excelRun,
  onProgress?: (p: PagesProgress) => void,
): Promise<BriefRefresh & AnswerNotes & { charts: number }> {
  return run(async (ctx) => {
    const rec = await findBriefTable(ctx);
    if (!rec) throw new Error('No DC Hub brief table in this workbook: insert a brief sheet first.');
    const diff = await tracked('brief diff', () => fetchBriefsDiff(client, rec.asOf, { onProgress }));
    const refreshed = await refreshBriefSheet(ctx, diff.briefs, { table: rec.table });
    const charts = (await updateCharts(ctx, fromTable(rec.table))).filter((c) => c.updated).length;
    return { ...refreshed, ...notesOf(diff), charts };
  });
}

export interface ChainPlan {
  filters: QueueFiltersInput;
  objectives: Record<string, number>;
  top_k?: number;
  maxSites: number;
}

export const estimateChain = (client: DchubClient, plan: ChainPlan): Promise<ChainCost> =>
  chainCost(client, { maxSites: plan.maxSites });

/** Runs the chain (progress reported) and writes the ranked table on a new sheet. */
export async function runChainToSheet(
  client: DchubClient,
  plan: ChainPlan,
  onProgress: (p: ChainProgress) => void,
  run: Run = excelRun,
): Promise<WrittenSheet & { callsSpent: number; scored: number }> {
  needExcel(run);
  const input: ChainInput = {
    filters: { geocoded_only: true, ...plan.filters },
    objectives: plan.objectives,
    top_k: plan.top_k,
    maxSites: plan.maxSites,
  };
  const r = await tracked('chain', () => runChain(client, input, onProgress));
  const summary = `Chain: ${r.scored} sites scored, ${r.callsSpent} calls spent${r.skippedForBudget ? `, ${r.skippedForBudget} skipped for budget` : ''}; generated ${new Date().toISOString().slice(0, 16)}Z`;
  const written = await run((ctx) => writeRankedSheet(ctx, r.table, { summary, explanations: r.explanations }));
  return { ...written, callsSpent: r.callsSpent, scored: r.scored };
}

/** Drops every cached answer (the quota ledger is kept). */
export async function clearCache(client: DchubClient): Promise<number> {
  return client.cache ? client.cache.clear() : 0;
}

/** Refresh now: clear the cached answers, then have Excel recalculate so DCHUB formulas ask again. */
export async function refreshNow(client: DchubClient, run: Run = excelRun): Promise<number> {
  const n = await clearCache(client);
  clearCellNotes(); // the cells are recalculated: they note themselves again
  await run((ctx) => recalculate(ctx));
  return n;
}
