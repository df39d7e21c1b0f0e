import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { Engine } from '../src/engine/rpc.js';
import { columnKind, frameColumns, recordFields, typedColumn } from '../src/notebook/columns.js';
import { NOTEBOOK_METHODS } from '../src/notebook/methods.js';

/**
 * The engine the Python API and the Jupyter relay run (issue 17): JSON-RPC 2.0 on a stream pair,
 * sessions over a directory store, core's notebook answers, errors named for the host's classes,
 * progress, cancel, and no key in any line that leaves it.
 */
let sb: RunningSandbox;
let dir: string;
const PRO = 'engine-pro-key-secret-0001';

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'engine', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}`, controls: true });
  dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-engine-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

type Message = {
  id?: number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
  method?: string;
  params?: Record<string, unknown>;
};

/** An engine on in-memory streams; `ask` sends one request and resolves with its answer. */
function engine() {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  const waiting = new Map<number, (m: Message) => void>();
  let buffer = '';
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      const m = JSON.parse(line) as Message;
      if (typeof m.id === 'number') waiting.get(m.id)?.(m);
    }
  });
  new Engine({ input, output, version: 'test' }).start();
  let next = 0;
  const send = (m: Record<string, unknown>) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const ask = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Message>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      send({ id, method, params });
    });
  return { ask, send, lines, raw: (text: string) => input.write(text) };
}

describe('the engine', () => {
  it('opens a session over a directory and answers a notebook call as typed columns with attrs', async () => {
    const e = engine();
    const open = await e.ask('open', { base_url: sb.url, api_key: PRO, cache_dir: dir });
    expect(open.result).toMatchObject({ base_url: sb.url, cache_dir: dir, has_key: true });
    const r = await e.ask('call', { session: open.result!.session, method: 'queue', args: { iso: 'ERCOT', limit: 5 } });
    const answer = r.result!;
    expect(answer.shape).toBe('table');
    const columns = answer.columns as Array<{ name: string; kind: string; values: unknown[] }>;
    expect(columns.map((c) => c.name).slice(0, 3)).toEqual(['queue_id', 'project_name', 'iso']);
    expect(columns.find((c) => c.name === 'capacity_mw')).toMatchObject({ kind: 'number' });
    expect(columns.find((c) => c.name === 'queue_date')?.kind).toBe('date');
    expect(columns[0].values).toHaveLength(5);
    expect(answer.attrs).toMatchObject({ from_cache: false, stale: false, preview: null });
    expect(answer.sent).toBe(1);
    // The same question again: from the cache, no request.
    const again = await e.ask('call', {
      session: open.result!.session,
      method: 'queue',
      args: { iso: 'ercot', limit: '5' },
    });
    expect(again.result).toMatchObject({ sent: 1, attrs: expect.objectContaining({ from_cache: true }) });
  });

  it('names a bad argument as the host names it, before any request, and says how many were sent', async () => {
    const e = engine();
    const { result } = await e.ask('open', { base_url: sb.url, api_key: PRO, cache_dir: dir });
    const r = await e.ask('call', { session: result!.session, method: 'queue', args: { min_mw: -5 } });
    expect(r.error).toMatchObject({
      code: -32000,
      message: 'min_mw: must be at least 0, got -5',
      data: { type: 'ValidationError', param: 'min_mw', sent: 0 },
    });
    const bad = await e.ask('open', { base_url: `http://user:${PRO}@127.0.0.1:9` });
    expect(bad.error?.data).toMatchObject({ type: 'ValidationError', param: 'base_url' });
    expect(JSON.stringify(bad)).not.toContain(PRO);
  });

  it('never lets a key out: an echoed key in an answer or an error is redacted in every line', async () => {
    const e = engine();
    const { result } = await e.ask('open', { base_url: sb.url, api_key: PRO, cache_dir: dir });
    // A facility search for the key itself: the sandbox echoes the query in its answer.
    await e.ask('call', { session: result!.session, method: 'facilities', args: { query: PRO } });
    await e.ask('call', { session: result!.session, method: 'market', args: { name: `${PRO}-nowhere` } });
    expect(e.lines.length).toBeGreaterThan(3);
    for (const line of e.lines) expect(line).not.toContain(PRO);
    expect(
      e.lines.some((l) => l.includes('[redacted]')),
      'the service echoed the key somewhere (else this proves nothing)',
    ).toBe(true);
  });

  it('reports progress of a long call and answers the protocol own errors', async () => {
    const e = engine();
    const { result } = await e.ask('open', { base_url: sb.url, api_key: PRO, cache_dir: dir });
    const chain = await e.ask('call', {
      session: result!.session,
      method: 'chain',
      args: { objectives: 'overall_score:1', iso: 'ERCOT', min_mw: 100, max_sites: 2, top_k: 2 },
    });
    expect(chain.result?.shape).toBe('table');
    const progress = e.lines.map((l) => JSON.parse(l) as Message).filter((m) => m.method === 'progress');
    expect(progress.map((p) => String(p.params?.message))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\[score\] scoring/)]),
    );
    expect((await e.ask('call', { session: result!.session, method: 'drop_tables' })).error?.code).toBe(-32601);
    expect((await e.ask('call', { session: 'nope', method: 'queue' })).error?.data?.type).toBe('DchubError');
    expect((await e.ask('teleport')).error?.code).toBe(-32601);
    e.raw('not json\n');
    await new Promise((r) => setTimeout(r, 20));
    expect(e.lines.some((l) => (JSON.parse(l) as Message).error?.code === -32700)).toBe(true);
  });

  it('cancels a call when the host asks', async () => {
    const e = engine();
    const { result } = await e.ask('open', { base_url: sb.url, api_key: PRO, cache_dir: dir });
    await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ path_prefix: '/api/news', kind: 'latency', latency_ms: 3000 }]),
    });
    try {
      const pending = e.ask('call', { session: result!.session, method: 'news', args: { limit: 2 } });
      await new Promise((r) => setTimeout(r, 100));
      e.send({ method: 'cancel', params: { id: 2 } }); // the call's id: open was 1
      const r = await pending;
      expect(r.error?.data?.type).toBe('Cancelled');
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });

  it('describes core tables and every method with the Python API names', async () => {
    const { result } = await engine().ask('describe', { env: { HOME: '/home/x' } });
    expect(result).toMatchObject({
      queue_isos: expect.arrayContaining(['PJM', 'ISO-NE']),
      tools: expect.arrayContaining(['analyze_site']),
    });
    expect(Object.keys(result!.methods as object).sort()).toEqual(Object.keys(NOTEBOOK_METHODS).sort());
    expect(result!.default_cache_dir).toBe(
      process.platform === 'linux' ? '/home/x/.cache/dchub' : result!.default_cache_dir,
    );
  });
});

describe('notebook columns', () => {
  it('types a column by its name and every value present, blanks as null, never 0', () => {
    expect(typedColumn('capacity_mw', ['7.23', 120, null])).toEqual({
      name: 'capacity_mw',
      kind: 'number',
      values: [7.23, 120, null],
    });
    expect(typedColumn('rank', [1, '2', null]).kind).toBe('integer');
    expect(typedColumn('composite_score', ['10–50 MW', 41.5]).kind).toBe('text');
    expect(typedColumn('queue_date', ['2025-01-02', null, ' ']).kind).toBe('date');
    expect(typedColumn('computed_at', ['yesterday']).kind).toBe('text');
    expect(typedColumn('is_breaking', [true, null, false]).kind).toBe('boolean');
    expect(columnKind('lat', [])).toBe('number');
    expect(columnKind('published_at', [])).toBe('date');
    expect(typedColumn('tags', [['a', 'b'], null]).values).toEqual(['a, b', null]);
  });

  it('keeps preferred columns first and leaves private and nested members out', () => {
    const cols = frameColumns([{ b: 1, _x: 2, a: 'k', nested: { z: 1 } }], ['a', 'missing']);
    expect(cols.map((c) => c.name)).toEqual(['a', 'b']);
    expect(frameColumns([{ b: 1 }], ['a'], { only: true }).map((c) => [c.name, c.values])).toEqual([['a', [null]]]);
  });

  it('flattens a record with decimal strings of numeric fields as numbers', () => {
    expect(
      recordFields({
        overall_score: '81.5',
        _private: 1,
        fiber: { connectivity_score: '70', name: '12' },
        list: [1, 2],
      }),
    ).toEqual([
      ['overall_score', 81.5],
      ['fiber.connectivity_score', 70],
      ['fiber.name', '12'],
      ['list', '1, 2'],
    ]);
  });
});
