/**
 * The ranking form's rows (pure, no DOM): candidates from selected table rows, objectives and
 * constraints from the editor rows, as core's ranking call takes them.
 */
import type { Cell, Table } from '@dchub/core';

/** One row of the ranking objectives editor: a field and a signed weight as typed. */
export interface ObjectiveRow {
  field: string;
  weight: string;
}

/** One row of the ranking constraints editor: a field and optional bounds as typed. */
export interface ConstraintRow {
  field: string;
  min: string;
  max: string;
}

/**
 * Ranking candidates from table rows: `id` from `idColumn`, plus every numeric cell (metrics,
 * coordinates). Text cells other than the id are left out; the service ranks on numbers.
 */
export function candidatesFromRows(table: Table, rows: readonly number[], idColumn: string): Array<Record<string, Cell>> {
  const idIndex = table.columns.indexOf(idColumn);
  return rows.map((i) => {
    const row = table.rows[i] ?? [];
    const out: Record<string, Cell> = {};
    if (idIndex >= 0 && row[idIndex] !== '') out['id'] = row[idIndex];
    table.columns.forEach((c, j) => {
      if (j !== idIndex && typeof row[j] === 'number') out[c] = row[j];
    });
    return out;
  });
}

/** Fields that are numeric in at least one candidate (what objectives and constraints can use). */
export function numericFields(candidates: ReadonlyArray<Record<string, Cell>>): string[] {
  const seen = new Set<string>();
  for (const c of candidates) for (const [k, v] of Object.entries(c)) if (typeof v === 'number') seen.add(k);
  return [...seen];
}

/** `{field: weight}` from editor rows; blank rows are skipped, bad weights are left for core to report. */
export function objectivesFromRows(rows: readonly ObjectiveRow[]): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const r of rows) {
    const field = r.field.trim();
    if (!field || !r.weight.trim()) continue;
    const n = Number(r.weight);
    out[field] = Number.isFinite(n) ? n : r.weight;
  }
  return out;
}

/** `{field: {min?, max?}}` from editor rows; rows without a field or any bound are skipped. */
export function constraintsFromRows(rows: readonly ConstraintRow[]): Record<string, { min?: number | string; max?: number | string }> {
  const out: Record<string, { min?: number | string; max?: number | string }> = {};
  for (const r of rows) {
    const field = r.field.trim();
    if (!field) continue;
    const bound = (s: string) => (s.trim() === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);
    const min = bound(r.min);
    const max = bound(r.max);
    if (min === undefined && max === undefined) continue;
    out[field] = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }
  return out;
}
