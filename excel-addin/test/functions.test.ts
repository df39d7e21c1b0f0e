// The custom functions under Node, with stand-ins for the CustomFunctions and OfficeRuntime
// globals (the openai-excel-functions pattern), against an in-process sandbox.
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '../../test/excel/excel-runtime.js';

class CellError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message);
  }
}
const ErrorCode = ERROR_CODES;
const storage = new Map<string, string>();
Object.assign(globalThis, {
  CustomFunctions: { Error: CellError, ErrorCode },
  OfficeRuntime: {
    storage: {
      getItem: async (k: string) => storage.get(k) ?? null,
      setItem: async (k: string, v: string) => void storage.set(k, v),
      removeItem: async (k: string) => void storage.delete(k),
      getKeys: async () => [...storage.keys()],
    },
  },
});

type Fns = typeof import('../src/functions/functions');
type Service = typeof import('../src/functions/service');
let f: Fns;
let service: Service;
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'pro=pro-key-1,enterprise=ent-key-1',
    controls: true,
  });
  f = await import('../src/functions/functions');
  service = await import('../src/functions/service');
});
afterAll(() => sb?.close());
beforeEach(() => {
  storage.clear();
  storage.set('dchub.baseUrl', sb.url);
  storage.set('dchub.apiKey', 'pro-key-1');
  service.resetServiceClient();
});

/** An invocation as Excel passes it; `onCanceled` is set by the function. */
const invocation = (over: Record<string, unknown> = {}) =>
  ({ address: 'Sheet1!A1', functionName: 'X', ...over }) as any;
const sent = async () => (await service.serviceClient()).requestsSent;
const rejection = async (p: Promise<unknown>): Promise<CellError> => {
  try {
    await p;
  } catch (err) {
    return err as CellError;
  }
  throw new Error('expected a cell error');
};

describe('formula value preview', () => {
  it('makes no call: #N/A until the answer is cached, then the cached value', async () => {
    const before = await sent();
    const err = await rejection(f.sitescore(39.04, -77.49, 100, null, invocation({ isInValuePreview: true })));
    expect(err).toBeInstanceOf(CellError);
    expect(err.code).toBe('#N/A');
    expect(err.message).toMatch(/press Enter/);
    expect(await sent()).toBe(before);

    const score = await f.sitescore(39.04, -77.49, 100, null, invocation());
    expect(typeof score).toBe('number');
    expect(await sent()).toBe(before + 1);

    // From storage too (a new client, as after a restart): still no call.
    service.resetServiceClient();
    const again = await f.sitescore(39.04, -77.49, 100, null, invocation({ isInValuePreview: true }));
    expect(again).toBe(score);
    expect(await sent()).toBe(0);
  });

  it('never runs a chain or a ranking while the user is typing', async () => {
    const err = await rejection(f.chain('PJM', 100, 36, 'overall_score:1', 3, invocation({ isInValuePreview: true })));
    // (CHAIN reports this as #VALUE! "preview: press Enter…", SITESCORE as #N/A.)
    expect(['#N/A', '#VALUE!']).toContain(err.code);
    expect(err.message).toMatch(/press Enter/);
    const rank = await rejection(
      f.rank(
        [
          ['id', 'lat', 'lon', 'x'],
          ['a', 39, -77, 1],
        ],
        'x:1',
        null,
        null as any,
        null,
        null as any,
        invocation({ isInValuePreview: true }),
      ),
    );
    expect(rank.message).toMatch(/press Enter/);
    expect(await sent()).toBe(0);
  });
});

describe('cancel', () => {
  it('onCanceled aborts the request: #N/A "request canceled"', async () => {
    const inv = invocation();
    const p = f.sitescore(40.1, -75.2, 50, null, inv);
    while (!inv.onCanceled) await new Promise((r) => setImmediate(r));
    inv.onCanceled();
    const err = await rejection(p);
    expect(err.code).toBe('#N/A');
    expect(err.message).toMatch(/canceled/);
    // The call never completed, so the ledger gave the reservation back or counted one at most.
    const snap = await (await service.serviceClient()).ledger!.snapshot();
    expect(snap.used).toBeLessThanOrEqual(1);
  });
});

describe('streaming', () => {
  it('NEWS sends its table through setResult and stops on cancel', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const setResult = vi.fn();
      const inv = invocation({ setResult });
      f.news(3, inv);
      await vi.waitFor(() => expect(setResult).toHaveBeenCalled(), { timeout: 5000 });
      const table = setResult.mock.calls[0][0];
      expect(Array.isArray(table) && Array.isArray(table[0])).toBe(true);
      expect(table.length).toBeGreaterThanOrEqual(2); // header + rows
      expect(typeof inv.onCanceled).toBe('function');
      inv.onCanceled();
      vi.advanceTimersByTime(10 * 60_000); // no refresh after cancel
      await new Promise((r) => setTimeout(r, 50));
      expect(setResult).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('FUELMIX reports errors through setResult instead of throwing', async () => {
    const setResult = vi.fn();
    const inv = invocation({ setResult });
    expect(() => f.fuelmix('NOPE' as any, inv)).not.toThrow();
    await vi.waitFor(() => expect(setResult).toHaveBeenCalled(), { timeout: 5000 });
    const err = setResult.mock.calls[0][0];
    expect(err).toBeInstanceOf(CellError);
    expect(['#VALUE!', '#N/A']).toContain(err.code);
    inv.onCanceled();
  });
});

describe('headers 0/1/2', () => {
  it('gives the same data rows with no header, a header row, or a source row and a header row', async () => {
    const [h0, h1, h2] = await Promise.all([0, 1, 2].map((h) => f.briefs(5, 0, h as any, invocation())));
    const width = h1[0].length;
    expect(h1[0]).toContain('market_slug');
    expect(h1.slice(1)).toEqual(h0);
    expect(h2.slice(1)).toEqual(h1);
    expect(String(h2[0][0])).toMatch(/^Source: /);
    for (const t of [h0, h1, h2]) for (const row of t) expect(row).toHaveLength(width);
    expect(h0.flat().every((v) => v !== null && v !== undefined)).toBe(true);
    expect(await sent()).toBe(1); // one call for all three
  });

  it('refuses another headers value with #VALUE! naming the argument', async () => {
    const err = await rejection(f.briefs(5, 0, 3 as any, invocation()));
    expect(err.code).toBe('#VALUE!');
    expect(err.message).toMatch(/^headers: /);
  });

  it('queue spills with the same three shapes', async () => {
    const args = ['PJM', 100, null, null, null, null, null, null, 5] as const;
    const h0 = await f.queue(...args, 0, invocation());
    const h1 = await f.queue(...args, 1, invocation());
    const h2 = await f.queue(...args, 2, invocation());
    expect(h1.length).toBe(h0.length + 1);
    expect(h2.length).toBe(h0.length + 2);
    expect(h1[0][0]).not.toBe(h0[0][0]);
    expect(String(h2[0][0])).toMatch(/^Source: /);
  });
});
