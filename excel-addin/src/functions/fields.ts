import { ValidationError, fieldTable, readPath, type Cell, type Table } from '@dchub/core';
import { optional, requiredText } from './args';
import { answerNotes } from './service';
import { MAX_CELL_TEXT, fit, spill } from './spill';

/** Members an answer offers at the top, for the message when a field is not found. */
const someMembers = (obj: unknown) =>
  obj && typeof obj === 'object' && !Array.isArray(obj)
    ? Object.keys(obj)
        .filter((k) => !k.startsWith('_'))
        .slice(0, 6)
        .join(', ')
    : '';

/** The member `field` names, or #VALUE! naming the argument. */
function member(obj: unknown, field: unknown): unknown {
  const path = requiredText('field', field);
  const v = readPath(obj, path); // own members only (core)
  if (v === undefined) {
    const some = someMembers(obj);
    throw new ValidationError('field', `no member ${JSON.stringify(path.slice(0, 60))} in this answer${some ? ` (members: ${some}, ...)` : ''}`);
  }
  return v;
}

/** One cell for a member: lists and groups as JSON text when that fits a cell. */
export function pick(obj: unknown, field: unknown): Cell {
  const v = member(obj, field);
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? v : '';
  if (typeof v === 'string' || typeof v === 'boolean') return fit(v);
  const json = JSON.stringify(v);
  if (json.length > MAX_CELL_TEXT) throw new ValidationError('field', `${String(field)} is too large for one cell; name one of its members`);
  return json;
}

/**
 * A function that answers a table or, with `field`, one member: always a matrix (Excel refuses an
 * array from a single-value function): the table, a group's field/value rows, or [[value]].
 */
export function tableOr(data: unknown, field: unknown, table: () => Table): Cell[][] {
  if (optional(field) === undefined) return spill(table(), 1, answerNotes(data));
  const v = member(data, field);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return spill(fieldTable(v), 1);
  return [[pick(data, field)]];
}
