// The team gateway (issue 25), measured in one run against baselines of the same run:
// - 20 simulated analysts × 500 formulas (400 distinct questions each, the same 400 for the team)
//   through 3 replicas: upstream requests, against each analyst asking alone (every formula a
//   request) and with a cache of their own (every distinct question a request);
// - a cached answer through one replica at concurrency 64 (wrk, one thread): requests/s as a ratio
//   to the sandbox's /api/health in the same run, p50 and p99;
// - Redis commands the replicas send per cached answer (MONITOR, Lua's own calls not counted).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureWrk, wrk } from './bench-sandbox.mjs';
import {
  countingProxy,
  countRedisCommands,
  startRedisServer,
  startReplica,
  startSandboxProcess,
} from './bench-gateway-parts.mjs';

const ORG_KEY = 'bench-gateway-pro-org-key';
const ANALYSTS = 20;
const FORMULAS = 500;
const REPLICAS = 3;
/** Formulas an analyst's workbook has in flight at once (Excel recalculates many cells together). */
const PER_ANALYST_CONCURRENCY = 8;
const LOAD_SECONDS = process.env.BENCH_GATEWAY_SECONDS ?? '3';
/** Alternating rounds of /api/health and the gateway; the median ratio is reported. */
const ROUNDS = 3;
const CACHED = '/api/v1/markets?limit=5';
const ROUND_TRIP_ANSWERS = 2_000;
const QUEUE = '/api/v1/interconnection-queue/refined';
const ISOS = ['PJM', 'MISO', 'ERCOT', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'];

/** A seeded generator (mulberry32): every run asks the same workbooks in the same order. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The team's 400 distinct questions: 168 queue questions (7 ISOs × 6 sizes × 4 horizons) and 232 others. */
export function teamQuestions() {
  const queue = ISOS.flatMap((iso) =>
    [0, 50, 100, 200, 300, 500].flatMap((mw) =>
      [0, 24, 36, 48].map(
        (ttp) => `${QUEUE}?iso=${iso}${mw ? `&min_mw=${mw}` : ''}${ttp ? `&max_ttp_months=${ttp}` : ''}`,
      ),
    ),
  );
  const markets = Array.from({ length: 100 }, (_, i) => `/api/v1/markets?limit=${i + 1}`);
  const news = Array.from({ length: 50 }, (_, i) => `/api/v1/news?limit=${i + 1}`);
  const sites = Array.from(
    { length: 400 - queue.length - markets.length - news.length },
    (_, i) =>
      `/api/site-score?lat=${(33 + (i % 10) * 0.7).toFixed(2)}&lon=${(-100 + Math.floor(i / 10) * 0.9).toFixed(2)}&capacity_mw=100`,
  );
  return [...queue, ...markets, ...news, ...sites];
}

/** An analyst's workbook: every team question once, 100 of them again, in the analyst's own order. */
export function workbook(questions, analyst) {
  const rand = rng(1000 + analyst);
  const formulas = [...questions];
  while (formulas.length < FORMULAS) formulas.push(questions[Math.floor(rand() * questions.length)]);
  for (let i = formulas.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [formulas[i], formulas[j]] = [formulas[j], formulas[i]];
  }
  return formulas;
}

/** Every analyst recalculates their workbook at once; formulas spread over the replicas. */
async function runAnalysts(replicas, tokens, books) {
  const statuses = {};
  const cache = {};
  let next = 0;
  const analyst = async (book, token) => {
    let i = 0;
    const worker = async () => {
      while (i < book.length) {
        const path = book[i++];
        const replica = replicas[next++ % replicas.length];
        const res = await fetch(replica.url + path, { headers: { 'X-API-Key': token } });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const c = res.headers.get('x-dchub-cache') ?? 'none';
        cache[c] = (cache[c] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: PER_ANALYST_CONCURRENCY }, worker));
  };
  const t0 = performance.now();
  await Promise.all(books.map((book, a) => analyst(book, tokens[a])));
  return { statuses, cache, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

/** Tokens for the analysts, from the real CLI (run side by side). */
async function analystTokens(env) {
  const run = promisify(execFile);
  return Promise.all(
    Array.from({ length: ANALYSTS }, async (_, a) => {
      const { stdout } = await run(process.execPath, ['gateway/dist/bin.js', 'token', 'add', `analyst-${a + 1}`], {
        env: { ...process.env, ...env },
      });
      return stdout.trim();
    }),
  );
}

/** The team workload: upstream requests with the gateway, against each analyst alone. */
async function teamWorkload(parts, tokens) {
  const questions = teamQuestions();
  const books = Array.from({ length: ANALYSTS }, (_, a) => workbook(questions, a));
  const before = parts.proxy.seen.length;
  const run = await runAnalysts(parts.replicas, tokens, books);
  const upstream = parts.proxy.seen.length - before;
  const formulas = books.reduce((n, b) => n + b.length, 0);
  const perAnalystCache = books.reduce((n, b) => n + new Set(b).size, 0);
  return {
    analysts: ANALYSTS,
    formulas_each: FORMULAS,
    distinct_questions: questions.length,
    replicas: REPLICAS,
    derive: parts.derive,
    upstream_requests: upstream,
    upstream_queue_requests: parts.proxy.seen.slice(before).filter((u) => u.startsWith(QUEUE)).length,
    without_gateway_requests: formulas,
    per_analyst_cache_requests: perAnalystCache,
    ratio_to_without: Math.round((upstream / formulas) * 10000) / 10000,
    ratio_to_per_analyst_cache: Math.round((upstream / perAnalystCache) * 10000) / 10000,
    answers: run.statuses,
    cache_status: run.cache,
    seconds: run.seconds,
    met: upstream <= questions.length && Object.keys(run.statuses).every((s) => s === '200'),
  };
}

/** The middle of three figures (rounds alternate, so background load falls on both sides alike). */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A cached answer at c=64 through one replica, beside the sandbox's /api/health in the same run. */
async function cachedThroughput(parts, token) {
  ensureWrk();
  const replica = parts.replicas[0];
  const warm = await fetch(replica.url + CACHED, { headers: { 'X-API-Key': token } });
  await warm.arrayBuffer();
  const opts = { connections: 64, seconds: LOAD_SECONDS };
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const health = wrk(`${parts.sandbox.url}/api/health`, ['Accept-Encoding: gzip'], opts);
    const gateway = wrk(replica.url + CACHED, [`X-API-Key: ${token}`, 'Accept-Encoding: gzip'], opts);
    rounds.push({ health, gateway, ratio: Math.round((gateway.rps / health.rps) * 100) / 100 });
  }
  const mid = rounds.find((r) => r.ratio === median(rounds.map((x) => x.ratio)));
  return {
    tool: 'wrk (Debian), one thread',
    concurrency: 64,
    duration_s: Number(LOAD_SECONDS),
    rounds: ROUNDS,
    path: CACHED,
    health: mid.health,
    gateway: mid.gateway,
    ratio_to_health: mid.ratio,
    ratios: rounds.map((r) => r.ratio),
    met: mid.ratio >= 0.5 && rounds.every((r) => r.gateway.non2xx === 0),
  };
}

/** Redis commands the replicas send per cached answer (goal ≤ 2). */
async function redisRoundTrips(parts, token) {
  const replicas = parts.replicas;
  let sent = 0;
  const commands = await countRedisCommands(parts.redis.port, async () => {
    const worker = async () => {
      while (sent < ROUND_TRIP_ANSWERS) {
        const r = replicas[sent++ % replicas.length];
        const res = await fetch(r.url + CACHED, { headers: { 'X-API-Key': token } });
        await res.arrayBuffer();
        if (res.headers.get('x-dchub-cache') !== 'hit') throw new Error(`not a cached answer: ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  });
  const perAnswer = Math.round((commands / ROUND_TRIP_ANSWERS) * 100) / 100;
  return { answers: ROUND_TRIP_ANSWERS, commands, per_answer: perAnswer, met: perAnswer <= 2 };
}

/** Starts Redis, the sandbox (its key Pro), the counting proxy and the replicas; `close` ends them all. */
async function startParts(derive) {
  const parts = { derive, replicas: [] };
  parts.close = async () => {
    await Promise.allSettled(parts.replicas.map((r) => r.close()));
    await Promise.allSettled([parts.proxy?.close(), parts.sandbox?.close(), parts.redis?.close()]);
  };
  try {
    parts.redis = await startRedisServer();
    parts.sandbox = await startSandboxProcess(`pro=${ORG_KEY}`);
    parts.proxy = await countingProxy(parts.sandbox.url);
    parts.env = {
      REDIS_URL: parts.redis.url,
      DCHUB_UPSTREAM_URL: parts.proxy.url,
      DCHUB_UPSTREAM_KEY: ORG_KEY,
      DCHUB_UPSTREAM_TIER: 'pro',
      DCHUB_GATEWAY_DERIVE: derive,
    };
    parts.replicas = await Promise.all(Array.from({ length: REPLICAS }, () => startReplica(parts.env)));
    return parts;
  } catch (err) {
    await parts.close();
    throw err;
  }
}

export async function benchGateway() {
  // Widen: the first queue question of an ISO is sent as its whole queue, later ones are derived.
  const parts = await startParts(process.env.BENCH_GATEWAY_DERIVE ?? 'widen');
  try {
    const tokens = await analystTokens(parts.env);
    const workload = await teamWorkload(parts, tokens);
    const throughput = await cachedThroughput(parts, tokens[0]);
    const roundTrips = await redisRoundTrips(parts, tokens[1]);
    return { workload, throughput, redis_round_trips: roundTrips };
  } finally {
    await parts.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchGateway(), null, 2));
}
