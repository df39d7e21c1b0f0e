// Core client benchmarks, each beside a naive baseline measured in the same run.
import { performance } from 'node:perf_hooks';
import { queueMap } from '../core/dist/charts/index.js';
import { DchubClient, QueueFilters, SiteScore, parseParams, queueTable, siteScore } from '../core/dist/index.js';
import { selectQueueSurvivors as sandboxRefine } from '../sandbox/dist/domain/queue.js';
import { startSandbox } from '../sandbox/dist/server.js';

const KEY = 'bench-core-enterprise';

export async function benchCore() {
  const sb = await startSandbox({ port: 0, seed: 'bench', now: '2026-11-21T12:00:00Z', keys: `enterprise=${KEY}` });
  const out = {};
  try {
    // (a) Request economy: 1,000 calls over 200 distinct argument sets, three passes.
    const args = (i) => ({ lat: 30 + (i % 200) * 0.05, lon: -95 });
    const client = new DchubClient({ baseUrl: sb.url, apiKey: KEY, tier: 'enterprise', retries: 0 });
    for (let pass = 0; pass < 3; pass++)
      await Promise.all(Array.from({ length: 1000 }, (_, i) => siteScore(client, args(i))));
    let naiveRequests = 0;
    for (let pass = 0; pass < 3; pass++) {
      await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const a = args(i);
          naiveRequests++;
          await (
            await fetch(`${sb.url}/api/site-score?lat=${a.lat}&lon=${a.lon}`, { headers: { 'X-API-Key': KEY } })
          ).json();
        }),
      );
    }
    out.request_economy = {
      requests_sent: client.requestsSent,
      naive_requests: naiveRequests,
      goal: 200,
      met: client.requestsSent === 200,
    };

    // (b) Warm-cache cost per call over 100,000 calls, beside a plain fetch per call.
    const p = new URLSearchParams({ lat: '30', lon: '-95' });
    await client.getJson('/api/site-score', SiteScore, p);
    const N = 100_000;
    let t0 = performance.now();
    for (let i = 0; i < N; i++) await client.getJson('/api/site-score', SiteScore, p);
    const warmUs = ((performance.now() - t0) * 1000) / N;
    const M = 300;
    t0 = performance.now();
    for (let i = 0; i < M; i++)
      await (await fetch(`${sb.url}/api/site-score?lat=30&lon=-95`, { headers: { 'X-API-Key': KEY } })).json();
    const fetchUs = ((performance.now() - t0) * 1000) / M;
    out.warm_cache_per_call = {
      us_per_call: round(warmUs, 2),
      naive_fetch_us_per_call: round(fetchUs, 1),
      speedup: round(fetchUs / warmUs, 0),
      goal_us: 5,
      met: warmUs < 5,
    };

    // (c) Shaping 5,300+ queue rows into a table, beside parsing the same answer's JSON.
    const all = sandboxRefine(
      sb.ctx.data.queue,
      { ...parseParams(QueueFilters, { status: 'all' }), limit: 100_000 },
      'bench',
      Date.parse('2026-11-21T12:00:00Z'),
    );
    const text = JSON.stringify(all);
    const median = (f, runs = 21) => {
      const ts = [];
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        f();
        ts.push(performance.now() - s);
      }
      return ts.sort((x, y) => x - y)[Math.floor(runs / 2)];
    };
    const shapeMs = median(() => queueTable(all));
    const parseMs = median(() => JSON.parse(text));
    out.shape_queue_rows = {
      rows: all.results.length,
      ms: round(shapeMs, 2),
      naive_json_parse_ms: round(parseMs, 2),
      ratio_to_parse: round(shapeMs / parseMs, 2),
      goal_ms: 10,
      met: shapeMs < 10,
    };

    // (c2) Issue 18: the queue map's spec for every survivor (state outlines inline), beside the same JSON.parse.
    await queueMap({ rows: all.results }); // the outlines load once
    const mapTimes = [];
    for (let i = 0; i < 21; i++) {
      const s = performance.now();
      await queueMap({ rows: all.results });
      mapTimes.push(performance.now() - s);
    }
    const mapMs = mapTimes.sort((x, y) => x - y)[10];
    const mapSpec = await queueMap({ rows: all.results });
    out.queue_map_spec = {
      rows: all.results.length,
      drawn: mapSpec.usermeta.dchub.drawn,
      ms: round(mapMs, 2),
      bytes: Buffer.byteLength(JSON.stringify(mapSpec)),
      naive_json_parse_ms: round(parseMs, 2),
      goal_ms: 20,
      met: mapMs < 20,
    };

    // (d) Bytes of a brief refresh through /diff after 5 of 232 markets changed, beside a full download.
    const get = async (p) =>
      Buffer.byteLength(await (await fetch(sb.url + p, { headers: { 'X-API-Key': KEY } })).text());
    const ctrl = (body) => sb.ctx.clock.set(body);
    let found;
    for (let d = 0; d < 120 && !found; d++) {
      const base = new Date(Date.parse('2026-11-21T12:00:00Z') + d * 86400_000);
      ctrl(base.toISOString());
      const since = new Date(base.getTime() - 86400_000).toISOString();
      const diff = await (
        await fetch(`${sb.url}/api/v1/market-brief/diff?since=${since}&limit=500`, { headers: { 'X-API-Key': KEY } })
      ).json();
      if (diff.changed_total === 5) found = { since, day: base.toISOString() };
    }
    if (found) {
      const diffBytes = await get(`/api/v1/market-brief/diff?since=${found.since}&limit=500`);
      const fullBytes = await get('/api/v1/market-brief/all?limit=500');
      const csvBytes = await get('/api/v1/market-brief/all.csv?limit=500');
      out.brief_refresh_bytes = {
        changed: 5,
        markets: 232,
        diff_bytes: diffBytes,
        full_json_bytes: fullBytes,
        full_csv_bytes: csvBytes,
        ratio: round(diffBytes / fullBytes, 4),
        goal: '<5%',
        met: diffBytes / fullBytes < 0.05,
      };
    } else out.brief_refresh_bytes = { error: 'no day with exactly 5 changed markets in 120 days' };
  } finally {
    await sb.close();
  }
  return out;
}

const round = (n, dp) => Math.round(n * 10 ** dp) / 10 ** dp;

if (process.argv[1]?.endsWith('bench-core.mjs')) console.log(JSON.stringify(await benchCore(), null, 2));
