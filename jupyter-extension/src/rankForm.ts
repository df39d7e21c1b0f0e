/**
 * The ranking form's rows (pure, no DOM): candidates from selected table rows, and the editor rows
 * handed to core's readers of ranking arguments (parseObjectives, parseConstraints), which every host shares.
 */
import {
  parseConstraints,
  parseObjectives,
  type Cell,
  type Constraints,
  type Objectives,
  type Table
} from '@dchub/core';

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
export function candidatesFromRows(
  table: Table,
  rows: readonly number[],
  idColumn: string
): Array<Record<string, Cell>> {
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

/**
 * Objectives from the editor rows, read by core (`parseObjectives`: errors name `objectives`). A row
 * with no weight yet is still being edited and left out; a row without a field is skipped by core.
 */
export function editorObjectives(rows: readonly ObjectiveRow[]): Objectives {
  return parseObjectives(rows.filter((r) => r.weight.trim() !== ''));
}

/**
 * Constraints from the editor rows, read by core (`parseConstraints`: errors name `constraints`); a
 * row with neither bound yet is left out. Nothing left: undefined (no constraints).
 */
export function editorConstraints(rows: readonly ConstraintRow[]): Constraints | undefined {
  return parseConstraints(rows.filter((r) => r.min.trim() !== '' || r.max.trim() !== ''));
}
