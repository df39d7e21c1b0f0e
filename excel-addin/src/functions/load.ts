/* global CustomFunctions */
/**
 * What every formula runs through. functions.js itself holds only the formulas' declarations, so
 * Excel registers them as soon as it loads; the engine (core's client, schemas, cache, table
 * shaping: most of the bytes) is a chunk of its own, requested at once (see functions.ts) and
 * awaited by the first formula. TOOL's MCP client is a further chunk (see tools.ts).
 */
export type Engine = typeof import('./engine');

let loading: Promise<Engine> | undefined;

export function loadEngine(): Promise<Engine> {
  loading ??= import(/* webpackChunkName: "engine" */ './engine').catch((err) => {
    loading = undefined; // try again on the next formula
    throw err;
  });
  return loading;
}

const unloaded = () =>
  new CustomFunctions.Error(
    CustomFunctions.ErrorCode.notAvailable,
    'DC Hub: the add-in could not load its code (network?); recalculate to retry',
  );

/**
 * The one wrapper of every formula: runs its work with the engine; whatever fails becomes the cell error Excel shows.
 */
export async function formula<T>(work: (engine: Engine) => Promise<T> | T): Promise<T> {
  let engine: Engine;
  try {
    engine = await loadEngine();
  } catch {
    throw unloaded();
  }
  try {
    return await work(engine);
  } catch (err) {
    throw engine.toCellError(err);
  }
}

/** Streaming: first answer at once, then every `everyMs`; errors go through setResult (Excel ignores thrown ones). */
export function stream(
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
  everyMs: number,
  load: (engine: Engine, refresh: boolean) => Promise<unknown[][]>,
): void {
  let stopped = false;
  const tick = async (refresh: boolean) => {
    let value: unknown[][] | CustomFunctions.Error;
    try {
      value = await formula((e) => load(e, refresh));
    } catch (err) {
      value = err as CustomFunctions.Error; // formula() turns every failure into a cell error
    }
    if (!stopped) invocation.setResult(value);
  };
  void tick(false);
  const timer = setInterval(() => void tick(true), everyMs);
  invocation.onCanceled = () => {
    stopped = true;
    clearInterval(timer);
  };
}
