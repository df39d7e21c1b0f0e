/** Identical concurrent calls share one request: it is aborted only when every caller has given up. */

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

/** Rejects with an AbortError when `signal` fires, without cancelling `p` for others. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new DOMException('The operation was aborted.', 'AbortError'));
    };
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', abort);
        reject(e);
      },
    );
  });
}

export class InFlightRequests {
  readonly #inflight = new Map<string, InFlight>();

  /**
   * Joins the request under way for `key`, or begins one with `start` (given a signal of its own, since the
   * request outlives any one caller); `signal` abandons only this caller's wait.
   */
  share<T>(key: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const shared = this.#inflight.get(key);
    if (shared) {
      shared.waiters++;
      return raceAbort(shared.promise, signal, () => this.#leave(key, shared)) as Promise<T>;
    }
    const controller = new AbortController();
    const entry: InFlight = {
      controller,
      waiters: 1,
      promise: start(controller.signal).finally(() => {
        if (this.#inflight.get(key) === entry) this.#inflight.delete(key);
      }),
    };
    this.#inflight.set(key, entry);
    return raceAbort(entry.promise, signal, () => this.#leave(key, entry)) as Promise<T>;
  }

  /** A waiter gave up; when none is left the shared request is aborted. */
  #leave(key: string, entry: InFlight): void {
    entry.waiters--;
    if (entry.waiters <= 0) {
      entry.controller.abort();
      if (this.#inflight.get(key) === entry) this.#inflight.delete(key);
    }
  }
}
