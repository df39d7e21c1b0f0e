import { ValidationError, fieldTable, readPath, showValue, type Cell, type Table } from '@dchub/core';
import { optional, requiredText } from './args';
import { cellOf, oneCell, oneCellFormula, type OneCell } from './notes';
import { MAX_CELL_TEXT, fit, spillAnswer } from './spill';

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
    throw new ValidationError(
      'field',
      `no member ${showValue(path)} in this answer${some ? ` (members: ${some}, ...)` : ''}`,
    );
  }
  return v;
}

/** A member as one cell: lists and groups as JSON text when that fits a cell; null (and NaN) as "". */
function asCell(v: unknown, field: unknown): Cell {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? v : '';
  if (typeof v === 'string' || typeof v === 'boolean') return fit(v);
  const json = JSON.stringify(v);
  if (json.length > MAX_CELL_TEXT)
    throw new ValidationError('field', `${String(field)} is too large for one cell; name one of its members`);
  return json;
}

/**
 * One cell for the member `field` names (#VALUE! naming the argument when there is none). With
 * `at`, it is a formula's one-cell answer (./notes oneCell): a value a preview withholds is #N/A
 * saying so, and a preview, stale or derived answer is noted for the pane.
 */
export function pick(obj: unknown, field: unknown, at?: OneCell): Cell {
  const v = member(obj, field);
  const cell = asCell(v, field);
  return at ? oneCell(obj, String(field).trim(), v === null ? null : cell, at) : cell;
}

/**
 * A function that answers a table or, with `field`, one member: always a matrix (Excel refuses an
 * array from a single-value function): the table, a group's field/value rows (each with the
 * answer's closing rows), or [[value]] — a one-cell answer, noted for the pane like SITESCORE's.
 */
export function tableOr(data: unknown, field: unknown, table: () => Table, at: OneCell): Cell[][] {
  if (optional(field) === undefined) return spillAnswer(data, table());
  const v = member(data, field);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return spillAnswer(data, fieldTable(v));
  return [[pick(data, field, at)]];
}

/**
 * A one-cell formula's work (./notes `oneCellFormula`), noted at the calling cell (`cellOf`: its address, else the
 * formula and its arguments); `work` is given where, for `pick` and `tableOr`.
 */
export function oneCellAt<T>(
  invocation: { address?: string } | undefined,
  formula: string,
  args: unknown[],
  work: (at: OneCell) => Promise<T>,
): Promise<T> {
  const at = { cell: cellOf(invocation, formula, args), formula };
  return oneCellFormula(at, () => work(at));
}
