// The parts the gateway bench runs as real processes: a throwaway redis-server, the sandbox, a
// counting proxy before it, gateway replicas (`node gateway/dist/bin.js serve`) and tokens from the
// real CLI. Every process is ended by `close()`.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const GATEWAY_BIN = 'gateway/dist/bin.js';

/** A free loopback port (asked of the OS, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `ready` until it holds, at most `ms`. */
async function waitFor(what, ready, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error(`${what} did not become ready`);
    await sleep(50);
  }
}

const redisAnswers = (port) =>
  new Promise((resolve) => {
    const sock = createConnection({ port, host: '127.0.0.1' }, () => sock.write('PING\r\n'));
    sock.once('data', (d) => (sock.destroy(), resolve(d.toString().startsWith('+PONG'))));
    sock.once('error', () => resolve(false));
  });

/** A child process that is ended (and awaited) by `stop`. */
function stoppable(proc) {
  return async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    await once(proc, 'exit');
  };
}

/** Debian's redis-server on a free port, persistence off, noeviction (what the compose file runs). */
export async function startRedisServer() {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dchub-bench-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const proc = spawn('redis-server', [...args, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  await waitFor('redis-server', () => redisAnswers(port));
  const stop = stoppable(proc);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The sandbox as its own process (so a load test measures it, not the bench's event loop). */
export async function startSandboxProcess(keys) {
  const proc = spawn(process.execPath, ['sandbox/dist/main.js'], {
    env: { ...process.env, PORT: '0', DCHUB_SEED: 'gateway-bench', DCHUB_SANDBOX_KEYS: keys },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  return { url, close: stoppable(proc) };
}

/** A proxy before `target` that counts the requests the gateways send upstream. */
export async function countingProxy(target) {
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      seen.push(req.url);
      try {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
        );
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const up = await fetch(target + req.url, { method: req.method, headers, body });
        const out = {};
        up.headers.forEach((v, k) => {
          if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
        });
        res.writeHead(up.status, out).end(Buffer.from(await up.arrayBuffer()));
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A token from `dchub-gateway token add NAME` (its only line of stdout). */
export function addToken(env, name) {
  return execFileSync(process.execPath, [GATEWAY_BIN, 'token', 'add', name], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).trim();
}

/** One gateway replica as a process, answering once /healthz does. */
export async function startReplica(env) {
  const port = await freePort();
  const proc = spawn(process.execPath, [GATEWAY_BIN, 'serve'], {
    env: { ...process.env, ...env, DCHUB_GATEWAY_HOST: '127.0.0.1', DCHUB_GATEWAY_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Its log lines are not the bench's output; what it said is shown only if it fails to start.
  let said = '';
  proc.stderr.on('data', (d) => (said = (said + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`gateway on ${url}`, async () => {
    if (proc.exitCode !== null) throw new Error(`the gateway exited (${proc.exitCode}): ${said}`);
    return fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  });
  return { url, pid: proc.pid, close: stoppable(proc) };
}

/** Redis commands clients sent while `run` ran (MONITOR; commands a Lua script runs are not counted). */
export async function countRedisCommands(port, run) {
  let lines = 0;
  let partial = '';
  const sock = createConnection({ port, host: '127.0.0.1' });
  await once(sock, 'connect');
  sock.write('MONITOR\r\n');
  sock.on('data', (d) => {
    const text = partial + d.toString();
    const all = text.split('\r\n');
    partial = all.pop();
    // `+<time> [<db> <client address>] "cmd" ...`; a script's own calls say `[<db> lua]`.
    for (const l of all) if (/^\+\d+\.\d+ \[\d+ (?!lua\])/.test(l)) lines++;
  });
  await sleep(100);
  const before = lines;
  await run();
  await sleep(200);
  sock.destroy();
  return lines - before;
}
