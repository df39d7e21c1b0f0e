import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DirectoryStore } from '../src/cache/dirstore.js';

/**
 * Issue 20: one allowance across processes. Many `dchub` CLIs and Python API processes (each with
 * its own engine) at once on one cache directory never send more calls than the service stated are
 * left, never forget each other's wide answers, and ask one question once when they ask it together.
 * Every request that reaches the sandbox passes a counting proxy.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'core/dist/cli/dchub.js');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const FREE = 'concurrency-free-key-0001';
const DEV = 'concurrency-dev-key-0001';

let sb: RunningSandbox;
let proxy: Server;
let proxyUrl = '';
let count = 0;
let tooMany = 0;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'concurrency',
    now: '2026-11-21T12:00:00Z',
    keys: `free=${FREE},developer=${DEV}`,
  });
  proxy = createServer((req, res) => {
    count++;
    void (async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(sb.url + (req.url ?? '/'), { method: req.method, headers });
      if (upstream.status === 429) tooMany++;
      const body = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
      });
      res.writeHead(upstream.status, out).end(body);
    })();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await sb?.close();
});

/** Runs a process to its end: exit code and output. */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

const env = (dir: string, key: string) => ({
  DCHUB_BASE_URL: proxyUrl,
  DCHUB_CACHE_DIR: dir,
  DCHUB_API_KEY: key,
  DCHUB_DERIVE: 'exact',
});
const cli = (dir: string, key: string, ...args: string[]) => run('node', [CLI, ...args], env(dir, key));
const python = (dir: string, key: string, code: string) =>
  run(PYTHON, ['-c', `from dchub import Client, QuotaSpentError\nhub = Client()\n${code}`], {
    ...env(dir, key),
    PYTHONPATH: path.join(ROOT, 'python'),
  });
const withPython = existsSync(PYTHON) && existsSync(path.join(ROOT, 'python/dchub/engine/dchub-engine.mjs'));

describe('one cache directory, many processes', () => {
  it('never sends more calls than the service stated are left (CLI and Python mixed, 16 at once)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-conc-'));
    try {
      await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' }).catch(() => undefined);
      const first = await cli(dir, FREE, 'news', '--limit', '1');
      expect(first.code, first.err).toBe(0); // the service states the free allowance: 10 a day, 9 left
      count = 0;
      tooMany = 0;
      const jobs = Array.from({ length: 16 }, (_, i) =>
        withPython && i % 2
          ? python(
              dir,
              FREE,
              `try:\n    hub.news(limit=${i + 2})\n    print('ok')\nexcept QuotaSpentError:\n    print('refused')`,
            )
          : cli(dir, FREE, 'news', '--limit', String(i + 2)),
      );
      const results = await Promise.all(jobs);
      const answered = results.filter((r) => r.code === 0 && !r.out.includes('refused')).length;
      const refused = results.filter((r) => r.code === 4 || r.out.trim() === 'refused').length;
      expect({ sent: count, answered, refused, tooMany }).toEqual({ sent: 9, answered: 9, refused: 7, tooMany: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps every wide answer noted at once, and later narrower questions cost nothing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-conc-'));
    try {
      const isos = ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'];
      const wide = await Promise.all(
        isos.map((iso) => cli(dir, DEV, 'queue', '--iso', iso, '--limit', '1000', '--format', 'json')),
      );
      expect(wide.every((r) => r.code === 0)).toBe(true);
      count = 0;
      const narrow = await Promise.all(
        isos.map((iso) => cli(dir, DEV, 'queue', '--iso', iso, '--min-mw', '300', '--format', 'json')),
      );
      expect(narrow.map((r) => r.code)).toEqual(isos.map(() => 0));
      expect(narrow.filter((r) => r.err.includes('answered locally')).length).toBe(isos.length);
      expect(count).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('asks one question once when 16 processes ask it together', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-conc-'));
    try {
      count = 0;
      const results = await Promise.all(Array.from({ length: 16 }, () => cli(dir, DEV, 'markets', '--format', 'json')));
      expect(results.every((r) => r.code === 0)).toBe(true);
      expect(new Set(results.map((r) => r.out)).size).toBe(1);
      expect(count).toBe(1);
      // No lock or temp file is left behind.
      expect((await readdir(dir)).filter((n) => !n.endsWith('.json'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a directory that cannot be written answers uncached, once said (a file stands where the directory should)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-conc-'));
    try {
      await writeFile(path.join(dir, 'not-a-dir'), 'x');
      const said: string[] = [];
      const store = new DirectoryStore(path.join(dir, 'not-a-dir', 'cache'), { onUnwritable: (why) => said.push(why) });
      await store.set('k', 'v');
      await store.update('ledger', (t) => `${Number(t ?? 0) + 1}`);
      await store.update('ledger', (t) => `${Number(t ?? 0) + 1}`);
      expect([await store.get('k'), await store.get('ledger')]).toEqual(['v', '2']);
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        /^cannot write the cache directory .*not-a-dir\/cache \(ENOTDIR: it is not writable\); answers are not cached/,
      );
      // The CLI answers, uncached, with that one line on stderr.
      const r = await cli(path.join(dir, 'not-a-dir', 'cache'), DEV, 'markets', '--format', 'json');
      expect(r.code, r.err).toBe(0);
      expect(r.err.match(/cannot write the cache directory/g)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
