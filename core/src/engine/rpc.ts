import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { DchubError } from '../errors.js';
import { defaultCacheDir } from '../node.js';
import { NOTEBOOK_METHODS, describeNotebook } from '../notebook/methods.js';
import type { CacheInfoAnswerT, QuotaAnswerT } from '../notebook/signatures.js';
import type { MethodContext } from '../notebook/context.js';
import { chartFile, chartFor } from './charts.js';
import { RPC, rpcError } from './errors.js';
import { relayRequest, type RelayParams } from './relay.js';
import { quotaLine } from '../cache/quota-line.js';
import type { LedgerSnapshot } from '../cache/ledger.js';
import { Session, type LogLine } from './sessions.js';

/**
 * The engine's JSON-RPC 2.0 channel: one request per line on `input`, one answer per line on
 * `output`, in any order (calls run concurrently). A host (the Python API, the Jupyter relay)
 * opens a session per caller, then calls core's notebook methods, reads the quota, clears the
 * cache or relays a request; `progress` and `log` notifications say what a call is doing, and a
 * `cancel` notification aborts one. Every line leaving the engine is scrubbed of every key it holds.
 */

interface Request {
  jsonrpc?: string;
  id?: number | string | null;
  method?: unknown;
  params?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The ledger as a host reads it (the Python API's names): behind a team gateway also what it stated
 * (the team's allowance, the caller's share), and core's line for it, which every host shows as is.
 */
export function quotaAnswer(snap: LedgerSnapshot): QuotaAnswerT {
  const g = snap.gateway;
  return {
    tier: snap.tier,
    limit: snap.limit,
    used: snap.used,
    remaining: snap.remaining,
    resets_at: snap.resetsAt,
    confirmed: snap.confirmed,
    via_gateway: snap.viaGateway,
    gateway: g
      ? {
          team_limit: g.teamLimit,
          team_remaining: g.teamRemaining,
          share_limit: g.shareLimit ?? null,
          share_remaining: g.shareRemaining ?? null,
          resets_at: g.resetsAt,
        }
      : null,
    line: quotaLine(snap),
  };
}

export interface EngineOptions {
  input: Readable;
  output: Writable;
  version: string;
  /** Called when the input ends (the host went away). */
  onEnd?: () => void;
}

export class Engine {
  readonly #sessions = new Map<string, Session>();
  readonly #running = new Map<string, AbortController>();
  readonly #secrets = new Set<string>();
  readonly #pending = new Set<Promise<void>>();
  #next = 0;

  constructor(private readonly opts: EngineOptions) {}

  /** Reads requests until the input ends. */
  start(): void {
    const lines = createInterface({ input: this.opts.input, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const p = this.#handle(line).finally(() => this.#pending.delete(p));
      this.#pending.add(p);
    });
    // The host went away: the calls under way finish (each bounded by its timeout), then the engine ends.
    lines.on('close', () => void Promise.allSettled([...this.#pending]).then(() => this.opts.onEnd?.()));
  }

  /** Writes one message, with every key this engine holds replaced by `[redacted]`. */
  #send(message: Record<string, unknown>): void {
    let line = JSON.stringify({ jsonrpc: '2.0', ...message });
    // A key is found as it stands in the line: escaped as JSON escapes it (a quote, a backslash, a control character).
    for (const s of this.#secrets) {
      for (const form of [s, JSON.stringify(s).slice(1, -1)])
        if (line.includes(form)) line = line.split(form).join('[redacted]');
    }
    this.opts.output.write(`${line}\n`);
  }

  readonly #log: LogLine = (level, message) => this.#send({ method: 'log', params: { level, message } });

  async #handle(line: string): Promise<void> {
    if (!line.trim()) return;
    let req: Request;
    try {
      req = JSON.parse(line) as Request;
    } catch {
      this.#send({ id: null, error: { code: RPC.parse, message: 'a request line is not JSON' } });
      return;
    }
    const id = req.id;
    if (!isRecord(req) || typeof req.method !== 'string') {
      if (id !== undefined)
        this.#send({ id, error: { code: RPC.invalidRequest, message: 'a request needs a method' } });
      return;
    }
    const params = isRecord(req.params) ? req.params : {};
    if (req.method === 'cancel') {
      this.#running.get(String(params.id))?.abort();
      return;
    }
    if (id === undefined || id === null) return; // other notifications: nothing to answer
    const controller = new AbortController();
    this.#running.set(String(id), controller);
    // A session's calls say how many requests it has sent in all, answered or failed.
    const sent = () => this.#sessions.get(String(params.session))?.client.requestsSent;
    try {
      const result = await this.#dispatch(req.method, params, String(id), controller.signal);
      this.#send({ id, result: isRecord(result) && sent() !== undefined ? { ...result, sent: sent() } : result });
    } catch (err) {
      const error = rpcError(err);
      if (sent() !== undefined) error.data = { ...(error.data ?? {}), sent: sent() };
      this.#send({ id, error });
    } finally {
      this.#running.delete(String(id));
    }
  }

  #session(params: Record<string, unknown>): Session {
    const s = this.#sessions.get(String(params.session));
    if (!s) throw new DchubError('validation', `no open session ${JSON.stringify(params.session)}; open one first`);
    s.clock = typeof params.now === 'number' && Number.isFinite(params.now) ? params.now : undefined;
    return s;
  }

  async #dispatch(method: string, params: Record<string, unknown>, id: string, signal: AbortSignal): Promise<unknown> {
    switch (method) {
      case 'ping':
        return { version: this.opts.version, pid: process.pid };
      case 'describe': {
        const env = isRecord(params.env) ? (params.env as Record<string, string | undefined>) : process.env;
        const home = (process.platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
        return {
          ...describeNotebook(this.opts.version),
          default_cache_dir: defaultCacheDir(env, process.platform, home),
        };
      }
      case 'open': {
        const s = await Session.open(params, this.#log);
        if (s.secret) this.#secrets.add(s.secret);
        const name = `s${++this.#next}`;
        this.#sessions.set(name, s);
        return {
          session: name,
          base_url: s.client.baseUrl.replace(/\/$/, ''),
          cache_dir: s.cacheDir,
          has_key: s.hasKey,
        };
      }
      case 'close': {
        const s = this.#sessions.get(String(params.session));
        this.#sessions.delete(String(params.session));
        await s?.close();
        return { closed: s !== undefined };
      }
      case 'call': {
        const s = this.#session(params);
        const name = String(params.method);
        const m = Object.prototype.hasOwnProperty.call(NOTEBOOK_METHODS, name) ? NOTEBOOK_METHODS[name] : undefined;
        if (!m) throw Object.assign(new Error(`unknown method ${JSON.stringify(name)}`), { rpcCode: RPC.noMethod });
        const ctx: MethodContext = {
          client: s.client,
          call: { refresh: params.refresh === true, signal },
          progress: (message) => this.#send({ method: 'progress', params: { id, message } }),
          mcp: () => s.mcp(),
        };
        const answer = await m.run(isRecord(params.args) ? params.args : {}, ctx);
        // Said once, with the first answer after it happened.
        for (const note of s.notes.splice(0)) answer.warnings.push({ category: 'note', message: `DC Hub: ${note}` });
        return answer;
      }
      case 'quota':
        return quotaAnswer(await this.#session(params).ledger.snapshot());
      case 'cache_info': {
        const s = this.#session(params);
        return { directory: s.cacheDir, answers: (await s.client.cache?.count()) ?? 0 } satisfies CacheInfoAnswerT;
      }
      case 'cache_clear': {
        const s = this.#session(params);
        return { cleared: (await s.client.cache?.clear()) ?? 0 };
      }
      case 'chart':
        return { spec: await chartFor(params) };
      case 'chart_file':
        return chartFile(params);
      case 'relay':
        return relayRequest(this.#session(params), params as unknown as RelayParams, signal);
      default:
        throw Object.assign(new Error(`unknown method ${JSON.stringify(method)}`), { rpcCode: RPC.noMethod });
    }
  }
}
