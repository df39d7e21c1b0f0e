import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { ResponseCache, type StoredAnswer } from '../src/cache/responses.js';
import { MemoryStore } from '../src/cache/store.js';
import { StoredHeaders } from '../src/http/stored-headers.js';

/**
 * What keeps the Python API's engine small (issue 27): an answer read from the cache never loads Node's fetch
 * (undici, about 17 MB resident), and the answers kept parsed in memory have a budget in characters.
 */
const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'python/dchub/engine/dchub-engine.mjs');
const PRO = 'engine-memory-pro-key-0001';
let sb: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'engine-memory', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
  dir = mkdtempSync(path.join(os.tmpdir(), 'dchub-engine-memory-'));
  // Says, when the engine exits, whether Node's fetch was ever loaded in it.
  writeFileSync(
    path.join(dir, 'probe.cjs'),
    "process.on('exit', () => require('fs').writeFileSync(process.env.PROBE_OUT, " +
      "JSON.stringify(process.moduleLoadList.some((m) => m.includes('undici')))));\n",
  );
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { id: number; result?: Record<string, unknown>; error?: { message: string } };

/** The shipped engine in its own process: `open`, then each call in turn; resolves with the answers and the probe. */
async function engineRun(calls: Record<string, unknown>[], run: string) {
  const out = path.join(dir, `${run}.json`);
  const proc = spawn(process.execPath, ['--require', path.join(dir, 'probe.cjs'), bundle], {
    env: { ...process.env, PROBE_OUT: out, DCHUB_API_KEY: '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: proc.stdout });
  const answers = lines[Symbol.asyncIterator]();
  let id = 0;
  const ask = async (method: string, params: Record<string, unknown>): Promise<Answer> => {
    proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    for (;;) {
      const m = JSON.parse((await answers.next()).value as string) as Answer;
      if (m.id === id) return m;
    }
  };
  const open = await ask('open', { base_url: sb.url, api_key: PRO, cache_dir: path.join(dir, 'cache') });
  const results = [];
  for (const call of calls) results.push(await ask('call', { session: open.result!.session, ...call }));
  proc.stdin.end();
  await new Promise((resolve) => proc.once('exit', resolve));
  return { results, fetchLoaded: JSON.parse(readFileSync(out, 'utf8')) as boolean };
}

describe.skipIf(!existsSync(bundle))("the engine's first call from the cache", () => {
  it("loads none of Node's fetch; a call that goes out does", async () => {
    const call = { method: 'queue', args: { iso: 'PJM', min_mw: 100, limit: 50 } };
    const first = await engineRun([call], 'network');
    expect(first.results[0].error).toBeUndefined();
    expect(first.fetchLoaded).toBe(true); // the probe sees fetch when it is used
    const cached = await engineRun([call], 'cached');
    const [network, fromCache] = [first, cached].map((r) => r.results[0].result as Record<string, unknown>);
    expect(fromCache).toMatchObject({ sent: 0, attrs: { from_cache: true } });
    expect(network).toMatchObject({ sent: 1, attrs: { from_cache: false } });
    expect(fromCache.columns).toEqual(network.columns);
    expect(cached.fetchLoaded).toBe(false);
  });
});

describe('the parsed answers kept in memory', () => {
  const answer = (chars: number): StoredAnswer => ({
    text: 'x'.repeat(chars),
    storedAt: 0,
    expiresAt: Date.now() + 60_000,
  });

  it('stay within their budget of characters, the least recently used dropped first', () => {
    const cache = new ResponseCache(new MemoryStore(), 1000, 3_000);
    for (const key of ['a', 'b', 'c']) cache.remember(key, answer(1_000), key);
    expect(cache.peek('a')?.value).toBe('a'); // used: now the most recent
    cache.remember('d', answer(1_000), 'd');
    expect(cache.peek('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => cache.peek(k)?.value)).toEqual(['a', 'c', 'd']);
    cache.remember('a', answer(2_000), 'a2'); // replaced: counted once, at its new size
    expect(['a', 'c', 'd'].map((k) => cache.peek(k)?.value)).toEqual(['a2', undefined, 'd']);
  });

  it('never hold an answer larger than the whole budget, nor more answers than asked', () => {
    const cache = new ResponseCache(new MemoryStore(), 2, 3_000);
    cache.remember('huge', answer(3_001), 'huge');
    expect(cache.peek('huge')).toBeUndefined();
    for (const key of ['a', 'b', 'c']) cache.remember(key, answer(10), key);
    expect(['a', 'b', 'c'].map((k) => cache.peek(k)?.value)).toEqual([undefined, 'b', 'c']);
  });
});

describe("a stored answer's headers", () => {
  it('read as fetch Headers read: any case, in name order, values joined', () => {
    const init = { 'Content-Type': 'text/csv', 'X-RateLimit-Remaining': '41', etag: '"v1"', 'A-First': 'yes' };
    const ours = new StoredHeaders(init);
    const theirs = new Headers(init);
    for (const name of ['content-type', 'CONTENT-TYPE', 'x-ratelimit-remaining', 'ETag', 'missing']) {
      expect(ours.get(name)).toBe(theirs.get(name));
      expect(ours.has(name)).toBe(theirs.has(name));
    }
    expect([...ours]).toEqual([...theirs]);
    const seen: string[] = [];
    ours.forEach((v, k) => seen.push(`${k}=${v}`));
    expect(seen).toEqual([...theirs].map(([k, v]) => `${k}=${v}`));
    ours.append('Vary', 'a');
    theirs.append('Vary', 'a');
    ours.append('vary', 'b');
    theirs.append('vary', 'b');
    ours.delete('ETAG');
    theirs.delete('ETAG');
    expect([...ours.entries()]).toEqual([...theirs.entries()]);
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    expect([...ours.values()]).toEqual([...theirs.values()]);
  });
});
