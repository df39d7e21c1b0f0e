/**
 * What the pane's buttons do: service calls through the add-in's one client, and workbook writes
 * through `Excel.run` with the functions of ./excel. No DOM here.
 */
import {
  BRIEFS_CSV_PATH,
  BRIEFS_DIFF_PATH,
  MarketBriefDiff,
  ValidationError,
  chainCost,
  parseBriefsCsv,
  runChain,
  type BriefCsvRowT,
  type ChainCost,
  type ChainInput,
  type ChainProgress,
  type DchubClient,
  type MarketBriefT,
  type QueueFiltersInput,
} from '@dchub/core';
import { noteFailure, noteSuccess } from '../shared/status';
import { findBriefTable, insertBriefSheet, recalculate, refreshBriefSheet, writeRankedSheet, type BriefRefresh, type WrittenSheet } from './excel';

type Run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

/** Excel.run, or a clear error outside Excel (a plain browser tab). */
export const excelRun: Run = (batch) => {
  const excel = (globalThis as { Excel?: { run?: Run } }).Excel;
  if (!excel?.run) return Promise.reject(new Error('Open this pane in Excel to write sheets.'));
  return excel.run(batch);
};

/** Fails before any call is spent when the result could not be written (no Excel). */
function needExcel(run: Run): void {
  if (run === excelRun && !(globalThis as { Excel?: { run?: Run } }).Excel?.run) throw new Error('Open this pane in Excel to write sheets.');
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

const PRO_TIERS = new Set(['pro', 'founding', 'enterprise']);

/**
 * Every row of /all.csv for the caller's tier, paged (the service serves at most 50 rows a page
 * below Pro, 500 from Pro; `X-Total-Available` tells how many there are): one call per page.
 */
export async function fetchAllBriefRows(client: DchubClient): Promise<BriefCsvRowT[]> {
  const rows: BriefCsvRowT[] = [];
  let small = false;
  for (let offset = 0; offset < 10_000; ) {
    // The ledger learns the tier from the first answer's headers: later pages may be larger.
    const tier = (await client.ledger?.snapshot())?.tier?.toLowerCase() ?? '';
    const limit = !small && PRO_TIERS.has(tier) ? 500 : 50;
    let raw;
    try {
      raw = await client.getText(BRIEFS_CSV_PATH, new URLSearchParams({ limit: String(limit), offset: String(offset) }));
    } catch (err) {
      if (err instanceof ValidationError && err.param === 'limit' && limit > 50) {
        small = true; // the key's tier is below Pro after all
        continue;
      }
      throw err;
    }
    const page = parseBriefsCsv(raw.text);
    rows.push(...page);
    offset += page.length;
    const total = Number(raw.headers.get('x-total-available'));
    if (page.length < limit || !page.length || (Number.isFinite(total) && total > 0 && offset >= total)) break;
  }
  return rows;
}

/** Downloads /all.csv (every page) and inserts it as a brief sheet. */
export async function insertBriefs(client: DchubClient, run: Run = excelRun): Promise<WrittenSheet & { asOf: string }> {
  needExcel(run);
  const rows = await tracked('brief CSV', () => fetchAllBriefRows(client));
  return run((ctx) => insertBriefSheet(ctx, rows));
}

/** Every brief recomputed after `since` (all pages of /diff; never from the cache). */
export async function fetchDiffBriefs(client: DchubClient, since: string): Promise<MarketBriefT[]> {
  const out: MarketBriefT[] = [];
  for (let offset = 0; ; ) {
    const page = await client.getJson(BRIEFS_DIFF_PATH, MarketBriefDiff, new URLSearchParams({ since, limit: '50', offset: String(offset) }), { cache: false });
    out.push(...page.briefs);
    offset += page.briefs.length;
    if (!page.briefs.length || offset >= page.changed_total) return out;
  }
}

/** Refreshes the brief table (active sheet's, else the latest) through /diff since its stored as-of. */
export async function refreshBriefs(client: DchubClient, run: Run = excelRun): Promise<BriefRefresh> {
  return run(async (ctx) => {
    const rec = await findBriefTable(ctx);
    if (!rec) throw new Error('No DC Hub brief table in this workbook: insert a brief sheet first.');
    const briefs = await tracked('brief diff', () => fetchDiffBriefs(client, rec.asOf));
    return refreshBriefSheet(ctx, briefs, { table: rec.table });
  });
}

export interface ChainPlan {
  filters: QueueFiltersInput;
  objectives: Record<string, number>;
  top_k?: number;
  maxSites: number;
}

export const estimateChain = (client: DchubClient, plan: ChainPlan): Promise<ChainCost> => chainCost(client, { maxSites: plan.maxSites });

/** Runs the chain (progress reported) and writes the ranked table on a new sheet. */
export async function runChainToSheet(
  client: DchubClient,
  plan: ChainPlan,
  onProgress: (p: ChainProgress) => void,
  run: Run = excelRun,
): Promise<WrittenSheet & { callsSpent: number; scored: number }> {
  needExcel(run);
  const input: ChainInput = { filters: { geocoded_only: true, ...plan.filters }, objectives: plan.objectives, top_k: plan.top_k, maxSites: plan.maxSites };
  const r = await tracked('chain', () => runChain(client, input, onProgress));
  const summary = `Chain: ${r.scored} sites scored, ${r.callsSpent} calls spent${r.skippedForBudget ? `, ${r.skippedForBudget} skipped for budget` : ''}; generated ${new Date().toISOString().slice(0, 16)}Z`;
  const written = await run((ctx) => writeRankedSheet(ctx, r.table, { summary }));
  return { ...written, callsSpent: r.callsSpent, scored: r.scored };
}

/** Drops every cached answer (the quota ledger is kept). */
export async function clearCache(client: DchubClient): Promise<number> {
  return client.cache ? client.cache.clear() : 0;
}

/** Refresh now: clear the cached answers, then have Excel recalculate so DCHUB formulas ask again. */
export async function refreshNow(client: DchubClient, run: Run = excelRun): Promise<number> {
  const n = await clearCache(client);
  await run((ctx) => recalculate(ctx));
  return n;
}
