// Issue 17: the Python API on core's engine beside the Python API it replaced (the last commit that had
// its own transport, store and ledger), in the same run: a warm cached `hub.queue(...)` of 400 rows,
// and the first call of a fresh interpreter (Client() and the call; the engine's start included),
// with the whole process's wall time beside it. The old API is taken from git history. Issue 27: the same first call
// with V8's compile cache on and off (DCHUB_COMPILE_CACHE=0), and the engine's resident memory (its Node process)
// after one call that draws nothing and after 1,000 calls.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../sandbox/dist/server.js';

/** The last commit whose Python API re-implemented core (transport, store, ledger, derive in Python). */
export const LEGACY_COMMIT = '7428262';
const KEY = 'bench-python-pro-key';
const RUNS_WARM = 40;
const RUNS_FRESH = 7;
const MANY = 1000;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const python = path.join(root, '.venv', 'bin', 'python');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (n) => Math.round(n * 10) / 10;

/** The old package from git, and the two libraries it needed that the new one does not (kept in .cache). */
function legacyApi() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dchub-legacy-api-'));
  try {
    execFileSync('sh', [
      '-c',
      `git -C "${root}" archive ${LEGACY_COMMIT} jupyter-extension/dchub_jupyterlab | tar -x -C "${dir}"`,
    ]);
  } catch {
    return undefined; // a shallow clone without that commit: the old figure is then not measured
  }
  const deps = path.join(root, '.cache', 'bench-legacy-deps');
  if (!existsSync(path.join(deps, 'httpx'))) {
    mkdirSync(deps, { recursive: true });
    execFileSync(python, [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--target',
      deps,
      'httpx>=0.27,<1',
      'platformdirs>=4',
    ]);
  }
  return {
    pythonPath: [path.join(dir, 'jupyter-extension'), deps].join(path.delimiter),
    module: 'dchub_jupyterlab',
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const SCRIPT = `
import importlib, json, statistics, sys, time
t0 = time.perf_counter()
Client = importlib.import_module(sys.argv[5]).Client  # dchub, or the old dchub_jupyterlab
t_import = time.perf_counter()
url, key, cache, warm = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
hub = Client(base_url=url, api_key=key, cache_dir=cache)
df = hub.queue(iso="PJM", min_mw=100, limit=400)
t_first = time.perf_counter()
out = {"rows": len(df), "import_ms": (t_import - t0) * 1000, "first_ms": (t_first - t_import) * 1000, "sent": hub.requests_sent}
def rss_mb(pid):  # resident memory of a process (Linux), MB
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return None
engine = importlib.import_module("dchub.api.engine").ENGINE if sys.argv[5] == "dchub" else None
if engine is not None:
    out["engine_rss_first_mb"] = rss_mb(engine.pid)
    if int(sys.argv[6]):  # many calls: 20 queries over and over (20 fetched, the rest from the cache)
        for i in range(int(sys.argv[6]) - 1):
            hub.queue(iso="PJM", min_mw=50 + (i % 20) * 10, limit=400)
        out["engine_rss_many_mb"] = rss_mb(engine.pid)
if warm:
    times = []
    for _ in range(warm):
        s = time.perf_counter()
        again = hub.queue(iso="PJM", min_mw=100, limit=400)
        times.append((time.perf_counter() - s) * 1000)
    assert len(again) == len(df) and again.attrs["from_cache"]
    out["warm_ms"] = statistics.median(times)
print(json.dumps(out))
`;

/** One Python process (asynchronous: the sandbox answers from this process's event loop). */
async function run(api, url, cacheDir, warm, { many = 0, compileCache = true } = {}) {
  const started = performance.now();
  const args = ['-c', SCRIPT, url, KEY, cacheDir, String(warm), api.module, String(many)];
  const { stdout } = await promisify(execFile)(python, args, {
    env: {
      ...process.env,
      PYTHONPATH: api.pythonPath,
      DCHUB_API_KEY: '',
      DCHUB_BASE_URL: '',
      DCHUB_CACHE_DIR: '',
      XDG_CACHE_HOME: path.join(cacheDir, 'user-cache'), // the engine's compile cache: this run's, not the user's
      DCHUB_COMPILE_CACHE: compileCache ? '1' : '0',
    },
    timeout: 300_000,
  });
  return { ...JSON.parse(stdout.trim().split('\n').pop()), wall_ms: performance.now() - started };
}

/** One API: a first process fills the cache and times warm calls; fresh processes time the first call. */
async function measure(api, url) {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'dchub-bench-python-'));
  try {
    const primed = await run(api, url, cacheDir, RUNS_WARM);
    const fresh = [];
    const cold = []; // the same with V8's compile cache off
    for (let i = 0; i < RUNS_FRESH; i++) {
      fresh.push(await run(api, url, cacheDir, 0));
      if (api.engine) cold.push(await run(api, url, cacheDir, 0, { compileCache: false }));
    }
    if ([...fresh, ...cold].some((f) => f.sent !== 0))
      throw new Error('a fresh interpreter sent a request for a cached answer');
    const many = api.engine ? await run(api, url, cacheDir, 0, { many: MANY }) : undefined;
    // A first call that goes to the service (an empty cache): it loads Node's fetch, which a cached answer never does.
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'dchub-bench-python-empty-'));
    const network = api.engine
      ? await run(api, url, emptyDir, 0).finally(() => rmSync(emptyDir, { recursive: true }))
      : undefined;
    const mid = (runs, k) => (runs.length ? r1(median(runs.map((f) => f[k]))) : null);
    return {
      rows: primed.rows,
      warm_ms: r1(primed.warm_ms),
      first_call_ms: mid(fresh, 'first_ms'),
      first_call_no_compile_cache_ms: mid(cold, 'first_ms'),
      import_ms: mid(fresh, 'import_ms'),
      process_wall_ms: mid(fresh, 'wall_ms'),
      engine_rss_first_call_mb: mid(
        fresh.filter((f) => f.engine_rss_first_mb != null),
        'engine_rss_first_mb',
      ),
      engine_rss_first_network_call_mb: network?.engine_rss_first_mb != null ? r1(network.engine_rss_first_mb) : null,
      engine_rss_after_1000_calls_mb: many?.engine_rss_many_mb != null ? r1(many.engine_rss_many_mb) : null,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export async function benchPython() {
  const sb = await startSandbox({ port: 0, seed: 'bench-python', keys: `pro=${KEY}` });
  const legacy = legacyApi();
  try {
    const now = await measure({ pythonPath: path.join(root, 'python'), module: 'dchub', engine: true }, sb.url);
    const old = legacy ? await measure(legacy, sb.url) : undefined;
    return {
      legacy_commit: LEGACY_COMMIT,
      engine: now,
      legacy: old ?? null,
      goals: {
        warm_not_slower: old ? now.warm_ms <= old.warm_ms : null,
        first_call_under_1s: now.first_call_ms < 1000,
        first_call_within_150ms: now.first_call_ms <= 150,
        rss_first_call_within_80mb: now.engine_rss_first_call_mb != null ? now.engine_rss_first_call_mb <= 80 : null,
        rss_1000_calls_within_120mb:
          now.engine_rss_after_1000_calls_mb != null ? now.engine_rss_after_1000_calls_mb <= 120 : null,
      },
    };
  } finally {
    legacy?.cleanup();
    await sb.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchPython(), null, 2));
