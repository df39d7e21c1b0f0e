import {
  QUEUE_PREDICATES,
  ValidationError,
  cardCandidates,
  parseConstraints,
  parseObjectives,
  scalarText,
  type Cell,
  type QueueFiltersInput,
} from '@dchub/core';

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** A 2-D range with a header row → records (blank cells left out, numbers kept). */
export function rangeRecords(name: string, range: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(range) || !Array.isArray(range[0]))
    throw new ValidationError(name, 'must be a range with a header row');
  const [header, ...rows] = range as unknown[][];
  const cols = header.map((h) => (scalarText(h) ?? '').trim());
  if (cols.some((c) => !c)) throw new ValidationError(name, 'every column needs a name in the header row');
  const out = rows
    .filter((r) => r.some((v) => !blank(v)))
    .map((r) => {
      const rec: Record<string, unknown> = {};
      cols.forEach((c, j) => {
        if (!blank(r[j])) rec[c] = r[j];
      });
      return rec;
    });
  if (!out.length) throw new ValidationError(name, 'has no data rows under its header');
  return out;
}

/** RANK's candidates: a range of site or project cards (core's cardCandidates), or a table with a header row. */
export const candidatesArg = (range: unknown): Array<Record<string, unknown>> =>
  cardCandidates(range, 'candidates') ?? rangeRecords('candidates', range);

/** Objectives: field → signed weight, from a two-column range or "field:weight,..." text (core's one reader). */
export const objectivesArg = (v: unknown): Record<string, number> => parseObjectives(rangeOrText(v), 'objectives');

/**
 * Constraints: field → {min?, max?}, from a (field, min, max) range or "field:min:max,..." text (core's one reader).
 */
export const constraintsArg = (v: unknown): Record<string, { min?: number; max?: number }> | undefined =>
  parseConstraints(rangeOrText(v), 'constraints');

/** A text argument that must be present. */
export function requiredText(name: string, v: unknown): string {
  if (blank(v)) throw new ValidationError(name, 'is required');
  if (typeof v !== 'string' && typeof v !== 'number') throw new ValidationError(name, 'must be text');
  return String(v).trim();
}

/**
 * A parameter declared as a range (`unknown[][]`) that also takes text: Excel passes a typed value as
 * a 1×1 range. Gives the text (or number) of a single cell, the rows otherwise.
 */
export function rangeOrText(v: unknown): unknown {
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return v[0][0];
  return v;
}

/**
 * The queue's filters from QUEUE's (and QUEUECARDS') first arguments, which follow core's order of the predicates
 * (QUEUE_PREDICATES); the cells as Excel passes them: core's schema reads them and refuses a wrong one by name.
 */
export const queueFilters = (cells: readonly unknown[]): QueueFiltersInput =>
  Object.fromEntries(QUEUE_PREDICATES.map((name, i) => [name, cells[i]]));

export const optional = <T>(v: T | null | undefined): T | undefined => (blank(v) ? undefined : v);

export type Matrix = Cell[][];
