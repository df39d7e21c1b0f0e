import { ValidationError, fieldTable, type Cell, type Table } from '@dchub/core';
import { optional, requiredText } from './args';
import { answerNotes } from './service';
import { MAX_CELL_TEXT, fit, spill } from './spill';

const isIndex = (part: string, arr: unknown[]) => /^\d+$/.test(part) && Number(part) < arr.length;

/**
 * Reads a dotted path (`fiber.connectivity_score`, `members.0.acres`) through the answer's own
 * members only: never the prototype chain (`constructor`, `__proto__`, `toString`, ...).
 * TODO(core): readPath in core/src/table.ts should read own members only; then use it here.
 */
export function ownPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!isIndex(part, cur)) return undefined;
      cur = cur[Number(part)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
  }
  return cur;
}

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
  const v = ownPath(obj, path);
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
