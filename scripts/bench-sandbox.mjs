// Sandbox throughput: the refined queue under load on loopback at concurrency 32, beside
// /api/health in the same run (wrk with one thread, so the server keeps a core of its own).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const KEY = 'bench-enterprise-key';
const QUEUE = '/api/v1/interconnection-queue/refined?iso=PJM,MISO,ERCOT&min_mw=100&limit=200';
const DURATION = process.env.BENCH_SECONDS ?? '8';

export function ensureWrk() {
  if (spawnSync('wrk', ['-v']).error?.code !== 'ENOENT') return;
  console.error('installing wrk (Debian) for the load test');
  execFileSync('bash', [
    '-c',
    'apt-get install -y -qq wrk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq wrk >/dev/null)',
  ]);
}

/** wrk's figures for `url` at `connections` concurrent connections (one thread) for `seconds`. */
export function wrk(url, headers, { connections = 32, seconds = DURATION } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...headers.flatMap((h) => ['-H', h]), url];
  const out = execFileSync('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const ms = (label) => {
    const m = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    return m ? Math.round(Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) * 100) / 100 : NaN;
  };
  return {
    rps: Math.round(rps),
    p50_ms: ms(50),
    p99_ms: ms(99),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    socket_errors: /Socket errors:.*/.exec(out)?.[0] ?? null,
  };
}

export async function benchSandbox() {
  ensureWrk();
  const proc = spawn(process.execPath, ['sandbox/dist/main.js'], {
    env: {
      ...process.env,
      PORT: '0',
      DCHUB_SANDBOX_NOW: '2026-11-21T12:00:00Z',
      DCHUB_SANDBOX_KEYS: `enterprise=${KEY}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
        if (m) resolve(m[1]);
      });
      proc.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    // Real clients send Accept-Encoding; the key keeps the answer full (not the keyless preview).
    const headers = [`X-API-Key: ${KEY}`, 'Accept-Encoding: gzip'];
    await fetch(url + QUEUE, { headers: { 'X-API-Key': KEY } });
    const health = wrk(url + '/api/health', headers);
    const queue = wrk(url + QUEUE, headers);
    const ratio = Math.round((queue.rps / health.rps) * 100) / 100;
    const refusal = await hostileRefusal(url);
    return {
      refusal,
      concurrency: 32,
      duration_s: Number(DURATION),
      query: QUEUE,
      health,
      queue,
      ratio_to_health: ratio,
      goals: { queue_rps: 5000, queue_p99_ms: 20, ratio_to_health: 0.5 },
      met: queue.rps >= 5000 && queue.p99_ms < 20 && ratio >= 0.5 && queue.non2xx === 0,
    };
  } finally {
    proc.kill('SIGTERM');
    if (proc.exitCode === null) await once(proc, 'exit');
  }
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(runs, ask) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await ask();
    ms.push(performance.now() - t0);
  }
  return Math.round(median(ms) * 100) / 100;
}

/**
 * Hostile bodies are refused about as fast as they arrive: a 60,000-vertex polygon (~1 MB) to
 * /api/v1/analyze-parcel, beside a parcel of 5 vertices answered in full (median of 20 each, one at a time).
 * The tests check the refusal and its message; the speed is measured here, not in a timed test.
 */
async function hostileRefusal(url) {
  const ring = Array.from({ length: 60_000 }, (_, i) => [(i % 360) - 180 + i * 1e-6, ((i * 7) % 170) - 85]);
  const small = [
    [-77.49, 39.04],
    [-77.48, 39.04],
    [-77.48, 39.05],
    [-77.49, 39.05],
    [-77.49, 39.04],
  ];
  const post = (ring) => async () => {
    const res = await fetch(`${url}/api/v1/analyze-parcel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY },
      body: JSON.stringify({ geometry: { type: 'Polygon', coordinates: [ring] } }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  if ((await post(ring)()) !== 400) throw new Error('the 60,000-vertex polygon was not refused');
  const refused_ms = await timed(20, post(ring));
  const answered_ms = await timed(20, post(small));
  const ratio = Math.round((refused_ms / answered_ms) * 100) / 100;
  return { refused_ms, answered_ms, ratio, goal: { refused_ms: 100 }, met: refused_ms < 100 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await benchSandbox();
  console.table({ health: r.health, queue: r.queue });
  console.log(JSON.stringify(r, null, 2));
}
