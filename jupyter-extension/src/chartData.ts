/**
 * What a view hands core's chart builders (pure, no DOM): the rows it shows as records, and the
 * context core's footer words — a gated preview's rows shown of how many, a stale answer's age and
 * why, the data's time and citation — read from the answer's `fetchMeta` as the banner reads it.
 */
import type { ChartContext, ChartOptions } from '@dchub/core/charts';
import { answerNotes, type FetchMeta, type Table } from '@dchub/core';

/** A chart a view offers: core's chart by name, shown under Chart or Map. */
export interface ChartChoice {
  name: string;
  /** What the chart picker says ("Queued MW by ISO and fuel"). */
  label: string;
  kind: 'chart' | 'map';
}

const DCPI_CHARTS: readonly ChartChoice[] = [
  { name: 'leaderboard', label: 'Leaderboard', kind: 'chart' },
  { name: 'market_quadrant', label: 'Excess power against constraint', kind: 'chart' },
  { name: 'market_time_to_power', label: 'Time to power by market', kind: 'chart' }
];

/** The charts of each view: core's, by name (the Python API's `charts.<name>`). */
export const VIEW_CHARTS = {
  queue: [
    { name: 'queue_mix', label: 'Queued MW by ISO and fuel', kind: 'chart' },
    { name: 'queue_time_to_power', label: 'Time to power by ISO', kind: 'chart' },
    { name: 'queue_map', label: 'Projects', kind: 'map' }
  ],
  briefs: [
    { name: 'leaderboard', label: 'Leaderboard', kind: 'chart' },
    { name: 'market_time_to_power', label: 'Time to power by market', kind: 'chart' }
  ],
  dcpi: DCPI_CHARTS,
  // The scores list carries each market's coordinates: the map too.
  dcpiScores: [...DCPI_CHARTS, { name: 'markets_map', label: 'Markets by verdict', kind: 'map' }],
  ranking: [{ name: 'ranking', label: 'Objective contributions', kind: 'chart' }],
  site: [{ name: 'site_score', label: 'Score components', kind: 'chart' }]
} satisfies Record<string, readonly ChartChoice[]>;

/** The rows of a chart and, for each, the grid's source row it was drawn from. */
export interface ChartRows {
  records: Record<string, unknown>[];
  sourceRows: number[];
  /** The data they were read from: another object means other data (a new answer), drawn again. */
  version: object;
}

/** What the views give a chart: its rows, its context and the options of each chart. */
export interface ChartSource {
  /** The rows to chart, or null before any data. */
  chartRows(): ChartRows | null;
  chartContext(): ChartContext;
  chartOptions?(name: string): ChartOptions;
}

/**
 * The footer's context of an answer made of these fetched parts: the preview core described (or
 * that there is one), the stalest part's age and reason (as the banner says it), and the table's
 * citation and as-of.
 */
export function chartContext(
  metas: ReadonlyArray<FetchMeta | undefined>,
  source: { citation?: string; asOf?: string; matching?: number | null } = {}
): ChartContext {
  const present = metas.filter((m): m is FetchMeta => m !== undefined);
  const info = present.find((m) => m.previewInfo)?.previewInfo;
  const notes = answerNotes(present);
  return {
    asOf: source.asOf ?? null,
    citation: source.citation ?? null,
    // Rows that matched the call: the subtitle says what part of them the chart shows (core's wording).
    matching: source.matching ?? null,
    preview: info
      ? { shown: info.shown ?? null, total: info.total ?? null }
      : present.some((m) => m.preview)
        ? { shown: null, total: null }
        : null,
    stale: notes.stale ? { ageMs: notes.stale.ageMs, reason: notes.stale.reason } : null
  };
}

/** Rows of a table as records by column name (the names core's charts read); blank cells are left out. */
export function tableRecords(table: Table, rows: readonly number[]): Record<string, unknown>[] {
  const { columns } = table;
  return rows.map((i) => {
    const row = table.rows[i];
    const rec: Record<string, unknown> = {};
    for (let j = 0; j < columns.length; j++) if (row[j] !== '' && row[j] !== undefined) rec[columns[j]] = row[j];
    return rec;
  });
}

/** Whether two lists hold the same numbers (in any order). */
export function sameRows(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}
