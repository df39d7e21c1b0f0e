import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/server.js';

/**
 * Shared setup of the sandbox's HTTP suites: a sandbox a test file, on a free port, started before the
 * file's tests and closed after them, and the requests those tests make of it.
 */

/** The REST suites' keys, by tier. */
export const KEYS = { free: 'f1', starter: 's1', developer: 'd1', pro: 'p1', enterprise: 'e1' } as const;
export type KeyTier = keyof typeof KEYS | 'anonymous';

/**
 * A sandbox started in the file's `beforeAll` and closed in its `afterAll`. The object returned stands
 * for the running one: read it inside tests and hooks only.
 */
export function useSandbox(opts: Parameters<typeof startSandbox>[0]): RunningSandbox {
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandbox(opts);
  });
  afterAll(() => running?.close());
  const current = () => {
    if (!running) throw new Error('the sandbox starts in beforeAll');
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    get ctx() {
      return current().ctx;
    },
    close: () => current().close(),
  };
}

/** Forgets the sandbox's daily counts and rate limits. */
export const resetLimits = (sb: RunningSandbox) => fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });

/** Moves the sandbox's clock (its test controls): forward by `advance_seconds`, or to the time `set`. */
export const moveClock = (sb: RunningSandbox, move: { advance_seconds: number } | { set: string }) =>
  fetch(`${sb.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(move),
  });

/**
 * The REST suites' sandbox (seed `x`, the spec's clock, a key for each tier, the test controls) and
 * `call`: a GET with a tier's key (none for `anonymous`) giving the status, the headers, the body
 * (parsed where it is JSON, else the text: CSV or empty) and the text.
 */
export function useRestSandbox() {
  const sb = useSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,starter=s1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
  const call = async (path: string, tier: KeyTier = 'enterprise', headers: Record<string, string> = {}) => {
    const res = await fetch(sb.url + path, {
      headers: tier === 'anonymous' ? headers : { 'X-API-Key': KEYS[tier], ...headers },
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* CSV or empty */
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  return { sb, call, resetLimits: () => resetLimits(sb) };
}
