// A strict model of Excel's custom-functions runtime, for tests. It reads functions.json and
// enforces Microsoft's documented rules where the lenient stand-in accepted anything:
//
// - arguments as Excel passes them: one per declared parameter, an omitted optional as null, a
//   range (or any value given to a matrix parameter) as a 2-D array even for one cell, an empty
//   cell as null (Excel on the web) or 0 (desktop), then the invocation object last;
// - a result without `result.dimensionality: "matrix"` must not be an array (Excel shows #VALUE!);
//   a matrix result must be a non-empty rectangular 2-D array;
// - the invocation carries the calling cell's `address` only when the function declares
//   `requiresAddress` (`requiresStreamAddress` for streaming ones), as Excel does;
// - each cell: a finite number, a string of at most 32,767 characters, a boolean, or a
//   CustomFunctions.Error; null, undefined, NaN, Infinity, objects and Dates are defects;
// - a declared scalar result type (number, string, boolean) must match the value;
// - a failure must be a CustomFunctions.Error with a code Excel shows for a result (#NAME? and
//   #REF! are input-only), a message only with #VALUE! or #N/A, at most 255 characters and no
//   stack trace; anything else thrown shows as a bare #VALUE!;
// - streaming functions return nothing and deliver through setResult (a thrown exception is
//   ignored by Excel); cancelable functions get an invocation whose onCanceled Excel calls;
// - a cell value object (an entity card, a formatted number) only where functions.json allows
//   custom data (`allowCustomDataForDataTypeAny`) and the host has CustomFunctionsRuntime 1.4,
//   as a result or an argument, each checked by Excel's rules for cell values (cell-values.js) at
//   the host's ExcelApi level; a result over 5 MB of JSON is refused (Excel on the web's payload
//   limit, inference);
// - `Office.context.requirements.isSetSupported` answers for the host the test chose
//   (CustomFunctionsRuntime and ExcelApi versions), so the add-in can see what the host supports.
//
// Each call yields what the cell would show ({ value } or { error }) and the list of defects; a
// call with defects shows #VALUE! as Excel would. The same file runs in Node (unit tests of the
// model) and in the browser (harness.html), hence plain JavaScript.
import { versionAtLeast } from './cell-values.js';
import { CFError, MAX_TEXT, createResultChecks, describe, errorDefects, isCFError } from './excel-results.js';

export { MAX_ERROR_MESSAGE, MAX_TEXT } from './excel-results.js';

export const ERROR_CODES = Object.freeze({
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
  divisionByZero: '#DIV/0!',
  invalidNumber: '#NUM!',
  nullReference: '#NULL!',
  invalidName: '#NAME?',
  invalidReference: '#REF!',
});
/** How long a canceled call may take to settle. */
const CANCEL_GRACE_MS = 1000;
/** Today's Microsoft 365 Excel: cards with number formats and two-column sections. */
export const CURRENT_HOST = Object.freeze({ customFunctionsRuntime: '1.5', excelApi: '1.19' });

/** A reference to a range of cells (a test writes `range([[1, 2], [3, 4]])`). */
export const range = (rows) => ({ $range: rows });
/** An empty cell, alone or inside a range. */
export const EMPTY = Object.freeze({ $empty: true });

class ModelUsageError extends Error {}

/**
 * @param {{ metadata: { functions: any[], allowCustomDataForDataTypeAny?: boolean }, platform?: 'web' | 'desktop',
 * address?: string,
 *   host?: { customFunctionsRuntime: string, excelApi: string }, icons?: Iterable<string> }} opts
 *   `host`: the requirement sets the Excel being modelled supports; `icons`: Excel's
 *   EntityCompactLayoutIcons names (from @types/office-js, see office-icons.js).
 */
export function createExcelRuntime({ metadata, platform = 'web', address = 'Sheet1!A1', host = CURRENT_HOST, icons }) {
  const byId = new Map(metadata.functions.map((f) => [f.id, f]));
  const registered = new Map();
  const levels = { ...host, icons: icons ? new Set(icons) : undefined };
  const SETS = { CustomFunctionsRuntime: host.customFunctionsRuntime, ExcelApi: host.excelApi, SharedRuntime: '1.1' };
  const Office = {
    context: {
      requirements: {
        isSetSupported: (name, minVersion = '1.1') =>
          SETS[name] !== undefined && SETS[name] !== null && versionAtLeast(SETS[name], minVersion),
      },
    },
  };
  const { customDataDefects, resultDefects } = createResultChecks({ metadata, host, levels });

  const CustomFunctions = {
    associate(id, fn) {
      if (typeof id === 'object' && id) {
        for (const [k, v] of Object.entries(id)) CustomFunctions.associate(k, v);
        return;
      }
      if (!byId.has(id)) throw new ModelUsageError(`associate(${JSON.stringify(id)}): no such id in functions.json`);
      if (typeof fn !== 'function') throw new ModelUsageError(`associate(${id}): not a function`);
      registered.set(id, fn);
    },
    Error: CFError,
    ErrorCode: ERROR_CODES,
  };

  const emptyCell = () => (platform === 'desktop' ? 0 : null);

  /** One cell value of an argument, as Excel hands it over. */
  function argCell(v, where, meta) {
    if (v && typeof v === 'object' && v.$empty) return emptyCell();
    if (v && typeof v === 'object' && !Array.isArray(v) && 'type' in v) {
      const d = customDataDefects(meta, v, where, 'argument');
      if (d.length) throw new ModelUsageError(d.join('; '));
      return structuredClone(v);
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new ModelUsageError(`${where}: a cell cannot hold ${v}`);
      return v;
    }
    if (typeof v === 'string' && v.length > MAX_TEXT)
      throw new ModelUsageError(`${where}: text of ${v.length} characters (a cell holds at most ${MAX_TEXT})`);
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    throw new ModelUsageError(`${where}: ${JSON.stringify(v)} is not a cell value (number, text, boolean, EMPTY)`);
  }

  function argRows(rows, where, meta) {
    if (
      !Array.isArray(rows) ||
      !rows.length ||
      !rows.every((r) => Array.isArray(r) && r.length === rows[0].length && r.length > 0)
    ) {
      throw new ModelUsageError(`${where}: a range is a non-empty rectangular 2-D array`);
    }
    return rows.map((r, i) => r.map((v, j) => argCell(v, `${where}[${i}][${j}]`, meta)));
  }

  /** The arguments Excel passes for `given` (a value, range(...), EMPTY, or undefined = omitted). */
  function excelArgs(meta, given) {
    const params = meta.parameters ?? [];
    if (given.length > params.length)
      throw new ModelUsageError(`${meta.id}: ${given.length} arguments for ${params.length} parameters`);
    return params.map((p, i) => {
      const where = `${meta.id} argument ${p.name}`;
      const v = given[i];
      if (v === undefined || v === null) {
        if (!p.optional)
          throw new ModelUsageError(`${where} is required (Excel will not accept the formula without it)`);
        return null;
      }
      const isRange = v && typeof v === 'object' && '$range' in v;
      if (Array.isArray(v))
        throw new ModelUsageError(`${where}: write range([[...]]) for a range or an array constant`);
      if (p.dimensionality === 'matrix') return isRange ? argRows(v.$range, where, meta) : [[argCell(v, where, meta)]];
      if (isRange) {
        const rows = argRows(v.$range, where, meta);
        if (rows.length !== 1 || rows[0].length !== 1)
          throw new ModelUsageError(
            `${where}: a ${rows.length}×${rows[0].length} range given to a scalar parameter (Excel would lift the call per cell)`,
          );
        return rows[0][0];
      }
      return argCell(v, where, meta);
    });
  }

  /** What the cell shows for a value that passed the checks. */
  const shown = (value) =>
    isCFError(value) ? { error: { code: value.code, message: value.message ?? '' } } : { value };
  const broken = (defects) => ({ error: { code: '#VALUE!', message: '' }, defects });

  /** `at`: the calling cell, given to functions that declare requiresAddress (else undefined, as in Excel). */
  function invocationFor(meta, extra = {}, at = address) {
    const wantsAddress = meta.options?.requiresAddress === true || meta.options?.requiresStreamAddress === true;
    return {
      ...(wantsAddress ? { address: at } : {}),
      functionName: `DCHUB.${meta.id}`,
      isInValuePreview: false,
      ...extra,
    };
  }

  function lookup(id) {
    const meta = byId.get(id);
    if (!meta) throw new ModelUsageError(`no function ${id} in functions.json`);
    const fn = registered.get(id);
    if (!fn) return { meta, fn: undefined };
    return { meta, fn };
  }

  /**
   * Calls a request/response function as Excel would. `opts.isInValuePreview` marks a formula
   * value preview; `opts.cancelAfterMs` has Excel cancel the call (cancelable functions only);
   * `opts.address` is the calling cell (default: the runtime's).
   */
  async function invoke(id, given = [], opts = {}) {
    const { meta, fn } = lookup(id);
    if (!fn) return broken([`${id}: declared in functions.json but never associated (Excel shows #NAME? or #N/A)`]);
    if (meta.options?.stream) throw new ModelUsageError(`${id} is streaming: use stream()`);
    const args = excelArgs(meta, given);
    const invocation = invocationFor(
      meta,
      { isInValuePreview: Boolean(opts.isInValuePreview) },
      opts.address ?? address,
    );
    const defects = [];
    let timer;
    let settleBy;
    if (opts.cancelAfterMs !== undefined) {
      if (!meta.options?.cancelable) throw new ModelUsageError(`${id} is not cancelable: Excel never cancels it`);
      timer = setTimeout(() => {
        if (typeof invocation.onCanceled !== 'function')
          defects.push(`${id}: declared cancelable but sets no onCanceled`);
        else invocation.onCanceled();
        settleBy = Date.now() + CANCEL_GRACE_MS;
      }, opts.cancelAfterMs);
    }
    let value;
    let thrown;
    let failed = false;
    try {
      value = await fn(...args, invocation);
    } catch (e) {
      failed = true;
      thrown = e;
    } finally {
      clearTimeout(timer);
    }
    if (settleBy !== undefined && Date.now() > settleBy)
      defects.push(`${id}: still running ${CANCEL_GRACE_MS} ms after Excel canceled it`);
    if (failed) {
      const d = [...defects, ...errorDefects(thrown, id)];
      return d.length ? broken(d) : shown(thrown);
    }
    const d = [...defects, ...resultDefects(meta, value)];
    return d.length ? broken(d) : shown(value);
  }

  /**
   * Starts a streaming function. Returns the results Excel received (each checked), a way to
   * wait for the next one, and cancel() (what Excel does when the formula is deleted).
   */
  function stream(id, given = []) {
    const { meta, fn } = lookup(id);
    if (!meta.options?.stream) throw new ModelUsageError(`${id} is not streaming: use invoke()`);
    const results = [];
    const waiters = [];
    const invocation = invocationFor(meta, {
      setResult(v) {
        const d = resultDefects(meta, v);
        results.push(d.length ? broken(d) : shown(v));
        waiters.splice(0).forEach((w) => w());
      },
    });
    const defects = [];
    if (!fn) defects.push(`${id}: never associated`);
    else {
      try {
        const r = fn(...excelArgs(meta, given), invocation);
        if (r !== undefined)
          defects.push(
            `${id}: a streaming function returned ${describe(r)} (Excel ignores it; results go through setResult)`,
          );
        if (r && typeof r.then === 'function') r.then(undefined, () => {});
      } catch (e) {
        defects.push(
          `${id}: threw ${describe(e)}; Excel ignores exceptions of streaming functions (errors go through setResult)`,
        );
      }
    }
    return {
      results,
      defects,
      /** Waits until `count` results have arrived; resolves with the latest. */
      waitFor(count = 1, timeoutMs = 10_000) {
        return new Promise((resolve, reject) => {
          const t = setTimeout(
            () => reject(new Error(`${id}: ${results.length} of ${count} results within ${timeoutMs} ms`)),
            timeoutMs,
          );
          const check = () => {
            if (results.length >= count) {
              clearTimeout(t);
              resolve(results[results.length - 1]);
            } else waiters.push(check);
          };
          check();
        });
      },
      cancel() {
        if (typeof invocation.onCanceled !== 'function')
          defects.push(`${id}: a streaming function without onCanceled (its timers outlive the cell)`);
        else invocation.onCanceled();
      },
    };
  }

  return {
    CustomFunctions,
    Office,
    host,
    registered,
    invoke,
    stream,
    resultDefects,
    errorDefects,
    excelArgs,
    ModelUsageError,
  };
}
