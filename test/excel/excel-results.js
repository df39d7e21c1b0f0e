// What Excel accepts from a custom function, checked as Excel checks it: cell values, errors and their messages,
// matrix shapes, declared types, cell value objects (cards) where the metadata and the host allow them. Part of
// the strict model of excel-runtime.js (see its header for the rules and their sources).
import { cellValueDefects, versionAtLeast } from './cell-values.js';

/** Codes a function may give as its result (the docs mark #NAME? and #REF! input-only). */
const RESULT_CODES = new Set(['#VALUE!', '#N/A', '#DIV/0!', '#NUM!', '#NULL!']);
/** Codes whose custom message Excel shows. */
const MESSAGE_CODES = new Set(['#VALUE!', '#N/A']);
export const MAX_TEXT = 32767;
export const MAX_ERROR_MESSAGE = 255;
/** Excel on the web's request/response payload limit, applied to a result (inference: stated for the JS API). */
const MAX_RESULT_JSON = 5_000_000;
const STACK = /\n\s+at\s|\bat\s\S+\s\(\S+:\d+:\d+\)|@\S+:\d+:\d+/;

/** CustomFunctions.Error as the model hands it to the add-in. */
export class CFError {
  constructor(code, message) {
    this.code = code;
    if (message !== undefined) this.message = message;
  }
}

export const isCFError = (e) => e instanceof CFError;

/** A value named for a defect message. */
export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return String(v);
  if (v instanceof Date) return 'a Date';
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Error) return `${v.name} "${String(v.message).slice(0, 60)}"`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

/** Defects of an error Excel is handed (thrown, rejected, set or inside an array). */
export function errorDefects(e, where) {
  const out = [];
  if (!isCFError(e)) {
    out.push(`${where}: ${describe(e)} is not a CustomFunctions.Error (Excel shows a bare #VALUE!)`);
    return out;
  }
  if (!RESULT_CODES.has(e.code))
    out.push(`${where}: error code ${JSON.stringify(e.code)} is not one a function may return`);
  if (e.message !== undefined) {
    if (typeof e.message !== 'string') out.push(`${where}: error message is not text`);
    else {
      if (!MESSAGE_CODES.has(e.code))
        out.push(`${where}: Excel shows no message with ${e.code} ("${e.message.slice(0, 40)}")`);
      if (e.message.length > MAX_ERROR_MESSAGE)
        out.push(`${where}: error message of ${e.message.length} characters (at most ${MAX_ERROR_MESSAGE})`);
      if (STACK.test(e.message)) out.push(`${where}: error message carries a stack trace`);
    }
  }
  return out;
}

/**
 * The checks of one modelled Excel: `metadata` (functions.json), `host` (its requirement sets) and `levels` (what
 * cell-values.js reads: the host's API levels and icon names).
 */
export function createResultChecks({ metadata, host, levels }) {
  const isCellValueObject = (v) =>
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof Error) &&
    !isCFError(v);
  /** Defects of a cell value object handed to or returned from `meta` (a card, a formatted number). */
  function customDataDefects(meta, v, where, direction) {
    const allowed =
      metadata.allowCustomDataForDataTypeAny === true ||
      (direction === 'result' ? meta.result?.cellValueType : undefined);
    if (!allowed)
      return [
        `${where}: ${describe(v)} is not a cell value (a cell value object needs allowCustomDataForDataTypeAny in functions.json)`,
      ];
    if (!versionAtLeast(host.customFunctionsRuntime, '1.4'))
      return [
        `${where}: a cell value object on a host without CustomFunctionsRuntime 1.4 (it has ${host.customFunctionsRuntime}; Excel shows #VALUE!)`,
      ];
    return cellValueDefects(v, where, levels);
  }

  function cellDefects(v, where, declaredType, meta) {
    if (isCFError(v)) return errorDefects(v, where);
    if (isCellValueObject(v)) return customDataDefects(meta, v, where, 'result');
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return [`${where}: ${v} is not a cell value`];
      return declaredType && declaredType !== 'number' && declaredType !== 'any'
        ? [`${where}: a number from a function declared ${declaredType}`]
        : [];
    }
    if (typeof v === 'string') {
      const out =
        v.length > MAX_TEXT ? [`${where}: text of ${v.length} characters (a cell holds at most ${MAX_TEXT})`] : [];
      if (declaredType && declaredType !== 'string' && declaredType !== 'any')
        out.push(`${where}: text from a function declared ${declaredType}`);
      return out;
    }
    if (typeof v === 'boolean')
      return declaredType && declaredType !== 'boolean' && declaredType !== 'any'
        ? [`${where}: a boolean from a function declared ${declaredType}`]
        : [];
    return [`${where}: ${describe(v)} is not a cell value`];
  }

  /** Defects of a value returned (or set) for function `meta`. */
  function resultDefects(meta, value) {
    const r = meta.result ?? {};
    const where = meta.id;
    if (r.dimensionality !== 'matrix') {
      if (Array.isArray(value))
        return [`${where}: an array from a function declared single-value (no result.dimensionality "matrix")`];
      return cellDefects(value, where, r.type, meta);
    }
    if (isCFError(value)) return errorDefects(value, where);
    if (!Array.isArray(value))
      return [`${where}: ${describe(value)} from a function declared matrix (a 2-D array is due)`];
    if (!value.length) return [`${where}: an empty array (a matrix result needs at least one row)`];
    const out = [];
    const width = Array.isArray(value[0]) ? value[0].length : -1;
    if (width < 1) out.push(`${where}: row 0 is ${Array.isArray(value[0]) ? 'empty' : 'not an array'}`);
    value.forEach((row, i) => {
      if (!Array.isArray(row)) out.push(`${where}: row ${i} is not an array`);
      else if (row.length !== width)
        out.push(`${where}: row ${i} has ${row.length} cells, row 0 has ${width} (not rectangular)`);
      if (Array.isArray(row)) row.forEach((c, j) => out.push(...cellDefects(c, `${where}[${i}][${j}]`, r.type, meta)));
    });
    if (
      !out.length &&
      value.some((row) => row.some(isCellValueObject)) &&
      JSON.stringify(value).length > MAX_RESULT_JSON
    )
      out.push(
        `${where}: a result of over ${MAX_RESULT_JSON.toLocaleString('en-US')} characters of JSON (Excel on the web's payload limit)`,
      );
    return out.slice(0, 20);
  }

  return { isCellValueObject, customDataDefects, cellDefects, resultDefects };
}
