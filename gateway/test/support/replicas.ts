import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { runGatewayCli } from '../../src/cli.js';
import { freePort } from './redis.js';

/**
 * Gateway replicas as real processes (`node gateway/dist/bin.js serve`: build first), a counting
 * proxy in front of the upstream, and tokens made by the real CLI. Every byte a replica writes is
 * kept (`output`), so a test can look for a key in it.
 */
const BIN = path.resolve(import.meta.dirname, '../../dist/bin.js');

export interface Replica {
  url: string;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: the replica dies mid-work. */
  kill(): void;
  /** SIGTERM: a graceful stop; resolves when the process has exited. */
  stop(): Promise<number | null>;
}

export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  let out = '';
  const proc: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DCHUB_GATEWAY_PORT: String(port), DCHUB_GATEWAY_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the gateway exited (${proc.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`the gateway did not answer on ${url}:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    output: () => out,
    kill: () => proc.kill('SIGKILL'),
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve(proc.exitCode);
        proc.once('exit', (code) => resolve(code));
        proc.kill('SIGTERM');
      }),
  };
}

/** Starts `n` replicas with the same environment. */
export function startReplicas(n: number, env: Record<string, string>): Promise<Replica[]> {
  return Promise.all(Array.from({ length: n }, () => startReplica(env)));
}

/** A new token from `dchub-gateway token add` (the real CLI, in process): its only line of stdout. */
export async function addToken(env: Record<string, string>, name: string, share?: number): Promise<string> {
  let out = '';
  let err = '';
  const code = await runGatewayCli(['token', 'add', name, ...(share ? ['--daily-share', String(share)] : [])], env, {
    out: (s) => (out += s),
    err: (s) => (err += s),
  });
  if (code !== 0) throw new Error(`token add ${name} failed (${code}): ${err}`);
  return out.trim();
}

/** What passed the counting proxy: each request's method, path and query, and the key it carried. */
export interface Counted {
  method: string;
  url: string;
  key: string | undefined;
}

export interface CountingProxy {
  url: string;
  seen: Counted[];
  close(): Promise<void>;
}

/** A proxy in front of `target` that counts every request the gateways send upstream. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const seen: Counted[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
      void (async () => {
        try {
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
          ) as Record<string, string>;
          const body = chunks.length ? Buffer.concat(chunks) : undefined;
          const upstream = await fetch(target + (req.url ?? '/'), { method: req.method, headers, body });
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
          });
          res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
        } catch {
          res.writeHead(502).end();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
