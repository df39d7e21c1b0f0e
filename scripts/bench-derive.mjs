// Issue 14: a workbook-shaped workload (200 distinct QUEUE argument sets over the 7 ISOs and 40 DCPI
// cells) through the `dchub` CLI with one cache directory and a free key — requests sent with the
// derive policy beside today's cost without it (one request per distinct argument set), counted by
// a proxy in front of the sandbox, in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCli } from '../core/dist/cli/main.js';
import { startSandbox } from '../sandbox/dist/server.js';
import { dcpiWorkload, queueWorkload, shuffled, workloadCalls } from './derive-workload.mjs';

const FREE = 'bench-derive-free';
// The baseline's caller: a Developer key, so that a free key's 10 calls a day do not cut it short.
const DEV = 'bench-derive-developer';

/** Forwards GETs to `target`, counting requests and answer bytes. */
function countingProxy(target) {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer(async (req, res) => {
    stats.requests++;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection'].includes(k)),
    );
    const upstream = await fetch(target + req.url, { method: req.method, headers });
    const body = Buffer.from(await upstream.arrayBuffer());
    stats.bytes += body.length;
    const out = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(upstream.status, out).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        stats,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

async function runWorkload(proxy, calls, extra, key) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dchub-bench-derive-'));
  const before = { ...proxy.stats };
  const t0 = performance.now();
  let failures = 0;
  try {
    for (const call of calls) {
      const code = await runCli([...call.argv, ...extra], {
        out: () => {},
        err: () => {},
        env: { DCHUB_BASE_URL: proxy.url, DCHUB_CACHE_DIR: dir, DCHUB_API_KEY: key },
      });
      if (code !== 0) failures++;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    requests: proxy.stats.requests - before.requests,
    bytes: proxy.stats.bytes - before.bytes,
    ms: Math.round(performance.now() - t0),
    failures,
  };
}

export async function benchDerive() {
  // The service's daily limits on (free 10, Developer 500); the proxy counts every request.
  const sb = await startSandbox({
    port: 0,
    seed: 'bench-derive',
    now: '2026-11-21T12:00:00Z',
    keys: `free=${FREE},developer=${DEV}`,
  });
  const proxy = await countingProxy(sb.url);
  try {
    const list = await (await fetch(`${sb.url}/api/v1/dcpi/scores`, { headers: { 'X-API-Key': DEV } })).json();
    const calls = shuffled(
      workloadCalls(
        queueWorkload(200, 14),
        dcpiWorkload(
          list.scores.map((r) => r.market_slug),
          40,
          14,
        ),
      ),
      1,
    );
    const derived = await runWorkload(proxy, calls, [], FREE);
    const naive = await runWorkload(proxy, calls, ['--no-derive'], DEV);
    return {
      calls: calls.length,
      distinct_argument_sets: calls.length,
      requests: derived.requests,
      naive_requests: naive.requests,
      bytes: derived.bytes,
      naive_bytes: naive.bytes,
      ms: derived.ms,
      naive_ms: naive.ms,
      failures: derived.failures + naive.failures,
      ratio: Math.round((derived.requests / naive.requests) * 10000) / 10000,
      goal: '≤10 requests',
      met: derived.requests <= 10 && derived.failures === 0 && naive.failures === 0,
    };
  } finally {
    await proxy.close();
    await sb.close();
  }
}

if (process.argv[1]?.endsWith('bench-derive.mjs')) console.log(JSON.stringify(await benchDerive(), null, 2));
