/**
 * Brief sheets that refresh themselves, opted in per workbook (like Power Query's "refresh on
 * open / every N minutes"): the choice is a workbook setting, and the add-in asks Office to load
 * with this document (Office.addin.setStartupBehavior), so the pane's runtime starts when the
 * workbook opens and checks its brief tables, then again every N minutes while it is open.
 *
 * A check spends a call only when something can have changed: briefs change when DCPI is
 * recomputed, daily at 06:00 UTC, and /diff (never cached) returns exactly those. A table is due
 * when a recompute happened after what it already knows: its last refresh, or — for a table only
 * inserted — its download time less the 6 hours /all may have sat in the edge cache. And only
 * within the allowance: a check leaves at least RESERVE_CALLS of today's calls to the formulas.
 */
import { fetchBriefsDiff, fetchMeta, untilNextRecompute, type DchubClient } from '@dchub/core';
import { refreshBriefSheet } from './brief-refresh';
import { readBriefRecords, type BriefTableRecord } from './brief-sheet';
import { fromTable, updateCharts } from './charts';

export const AUTO_REFRESH_KEY = 'dchub.autoRefresh';
export const EDGE_CACHE_MS = 6 * 3_600_000;
export const RESERVE_CALLS = 1;
const DAY_MS = 86_400_000;

export interface AutoRefreshSettings {
  enabled: boolean;
  everyMinutes: number;
}
export const DEFAULT_AUTO_REFRESH: AutoRefreshSettings = { enabled: false, everyMinutes: 60 };

type Run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

/** The latest daily DCPI recompute at or before `now`. */
export const lastRecompute = (now: number): number => now + untilNextRecompute(now) - DAY_MS;

/** Until when a table's data is known to be current. */
export function knownUntil(rec: BriefTableRecord): number {
  if (rec.refreshedAt) return Date.parse(rec.refreshedAt);
  return Date.parse(rec.insertedAt) - EDGE_CACHE_MS;
}

/** Whether a check can find something new. */
export const isDue = (rec: BriefTableRecord, now: number): boolean => !(knownUntil(rec) >= lastRecompute(now));

export async function readAutoRefresh(context: Excel.RequestContext): Promise<AutoRefreshSettings> {
  const item = context.workbook.settings.getItemOrNullObject(AUTO_REFRESH_KEY);
  item.load('value');
  await context.sync();
  if (item.isNullObject) return { ...DEFAULT_AUTO_REFRESH };
  try {
    const v = (typeof item.value === 'string' ? JSON.parse(item.value) : item.value) as Partial<
      Record<keyof AutoRefreshSettings, unknown>
    > | null;
    const minutes = Number(v?.everyMinutes);
    return {
      enabled: v?.enabled === true,
      everyMinutes:
        Number.isFinite(minutes) && minutes >= 5 ? Math.min(minutes, 1440) : DEFAULT_AUTO_REFRESH.everyMinutes,
    };
  } catch {
    return { ...DEFAULT_AUTO_REFRESH };
  }
}

type StartupOffice = {
  addin?: { setStartupBehavior?: (b: unknown) => Promise<void> };
  StartupBehavior?: { load: unknown; none: unknown };
};

/**
 * Opts this workbook in or out: the workbook setting, and whether Office loads the add-in with the
 * document. Office applies the startup behaviour to the document it was called from.
 */
export async function setAutoRefresh(run: Run, next: AutoRefreshSettings): Promise<void> {
  await run(async (context) => {
    context.workbook.settings.add(AUTO_REFRESH_KEY, JSON.stringify(next));
    await context.sync();
  });
  const office = (globalThis as { Office?: StartupOffice }).Office;
  if (office?.addin?.setStartupBehavior && office.StartupBehavior) {
    await office.addin.setStartupBehavior(next.enabled ? office.StartupBehavior.load : office.StartupBehavior.none);
  }
}

export interface CheckResult {
  /** Tables checked against the service (one /diff each). */
  refreshed: Array<{ table: string; changed: number; added: number; warnings: string[] }>;
  /** Tables with nothing new possible since their last refresh. */
  current: string[];
  /** Why a due table was left alone (allowance), if so. */
  skipped?: string;
  at: string;
}

/** One pass over the workbook's brief tables: each due one refreshed through /diff. */
export async function checkBriefTables(client: DchubClient, run: Run, now = Date.now()): Promise<CheckResult> {
  const result: CheckResult = { refreshed: [], current: [], at: new Date(now).toISOString() };
  return run(async (context) => {
    const records = await readBriefRecords(context);
    const probes = records.map((r) => ({ r, t: context.workbook.tables.getItemOrNullObject(r.table) }));
    await context.sync();
    for (const { r, t } of probes) {
      if (t.isNullObject) continue;
      if (!isDue(r, now)) {
        result.current.push(r.table);
        continue;
      }
      const left = client.ledger ? await client.ledger.remaining() : Infinity;
      if (left <= RESERVE_CALLS) {
        result.skipped = `${left} call${left === 1 ? '' : 's'} left today; kept for your formulas`;
        continue;
      }
      const diff = await fetchBriefsDiff(client, r.asOf);
      const done = await refreshBriefSheet(context, diff.briefs, { table: r.table, now: result.at, automatic: true });
      await updateCharts(context, fromTable(r.table)); // the charts drawn from this table follow it
      // What the reader left out (a brief the service failed to build) is named in the status.
      result.refreshed.push({
        table: r.table,
        changed: done.changed.length,
        added: done.added.length,
        warnings: [...(fetchMeta(diff)?.explanations ?? []), ...(fetchMeta(diff)?.warnings ?? [])],
      });
    }
    return result;
  });
}

/**
 * Runs a check now (the workbook just opened) and every `everyMinutes` while it stays open.
 * Returns a stop function. Failures are reported, never thrown: the next tick tries again.
 */
export function scheduleAutoRefresh(
  settings: AutoRefreshSettings,
  check: () => Promise<CheckResult>,
  report: (r: CheckResult | Error) => void,
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      report(await check());
    } catch (err) {
      report(err instanceof Error ? err : new Error(String(err)));
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), settings.everyMinutes * 60_000);
  return () => clearInterval(timer);
}
