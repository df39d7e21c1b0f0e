import { ValidationError, readPath, type Cell, type Table } from '@dchub/core';
import { optional, requiredText } from './args';
import { answerNotes } from './service';
import { spill } from './spill';

/** Picks `field` (a dotted path) from an answer, or gives #VALUE! naming the field. */
export function pick(obj: unknown, field: unknown): Cell {
  const path = requiredText('field', field);
  const v = readPath(obj, path);
  if (v === undefined) throw new ValidationError('field', `no member ${JSON.stringify(path)} in this answer`);
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return v as Cell;
}

/** A spilled table or a single field, with the answer's notes (stale cache, preview). */
export const tableOr = (data: unknown, field: unknown, table: () => Table): Cell | Cell[][] =>
  optional(field) === undefined ? spill(table(), 1, answerNotes(data)) : pick(data, field);
