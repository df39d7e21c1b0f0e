import { CONNECTION_HINT, showError } from './dom';

/** What a panel shows while a request runs and when it fails. */
export interface RequestView {
  /** Shows or hides the panel's busy state. */
  setBusy: (busy: boolean) => void;
  /** The alert element, cleared when a request starts. */
  error: HTMLElement;
  /** Shows a failure; by default in `error` with the generic connection hint. */
  onError?: (err: unknown) => void;
}

function fail(view: RequestView, err: unknown): void {
  if (view.onError) view.onError(err);
  else showError(view.error, err, CONNECTION_HINT);
}

/**
 * Runs `work` with the panel busy and its error cleared. Never throws: a failure is shown
 * through the view and gives null.
 */
export async function runBusy<T>(view: RequestView, work: () => Promise<T>): Promise<T | null> {
  view.setBusy(true);
  showError(view.error, null, '');
  try {
    return await work();
  } catch (err) {
    fail(view, err);
    return null;
  } finally {
    view.setBusy(false);
  }
}

/**
 * Requests where the latest wins: starting one aborts the one still in flight, whose result
 * (or failure) is then ignored, and only the current request clears the busy state.
 */
export class LatestRequest {
  private _current: AbortController | null = null;

  constructor(private readonly _view: RequestView) {}

  /** Whether a request is running. */
  get busy(): boolean {
    return this._current !== null;
  }

  /**
   * Runs `work` with the request's abort signal and hands its result to `show` unless a newer
   * request (or `abort()`) came first. Never throws: gives null on failure or abort.
   */
  async run<T>(work: (signal: AbortSignal) => Promise<T>, show: (result: T) => void): Promise<T | null> {
    this._current?.abort();
    const inflight = new AbortController();
    this._current = inflight;
    this._view.setBusy(true);
    showError(this._view.error, null, '');
    try {
      const result = await work(inflight.signal);
      if (inflight.signal.aborted) return null;
      show(result);
      return result;
    } catch (err) {
      if (inflight.signal.aborted) return null;
      fail(this._view, err);
      return null;
    } finally {
      if (this._current === inflight) {
        this._current = null;
        this._view.setBusy(false);
      }
    }
  }

  /** Aborts the request in flight, if any; with `forget`, it no longer counts as busy either. */
  abort(forget = false): void {
    this._current?.abort();
    if (forget) this._current = null;
  }
}
