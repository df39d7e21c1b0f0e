import { createHash } from 'node:crypto';
import { CACHE_KEY_PREFIX } from './keys.js';
import type { KeyValueStore } from './store.js';

/**
 * The commands RedisStore uses, as node-redis (v5 and later) names them: any client of that shape
 * serves, a single server's or a cluster's (every script here names one key, so it routes).
 */
export interface RedisCommands {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, opts?: { PX?: number; NX?: boolean }): Promise<unknown>;
  del(keys: string | string[]): Promise<unknown>;
  scan(cursor: string, opts: { MATCH: string; COUNT: number }): Promise<{ cursor: string | number; keys: string[] }>;
  eval(script: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** EVALSHA, when the client has it: the script by its digest (`LuaScript` falls back to EVAL on NOSCRIPT). */
  evalSha?(sha1: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * A Lua script run by its digest (EVALSHA: a cached answer's authentication sends 40 bytes, not the script), sent
 * whole once the server does not know it (NOSCRIPT: a restart, a failover or SCRIPT FLUSH forget scripts).
 */
export class LuaScript {
  readonly sha1: string;
  constructor(readonly source: string) {
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  async run(
    redis: Pick<RedisCommands, 'eval' | 'evalSha'>,
    opts: { keys: string[]; arguments: string[] },
  ): Promise<unknown> {
    if (redis.evalSha) {
      try {
        return await redis.evalSha(this.sha1, opts);
      } catch (err) {
        if (!String((err as Error | undefined)?.message ?? err).startsWith('NOSCRIPT')) throw err;
      }
    }
    return redis.eval(this.source, opts);
  }
}

export interface RedisStoreOptions {
  /** Put before every key (several gateways, or a gateway and something else, may share one server). */
  namespace?: string;
  /**
   * How long a cached answer is kept past its writing (default 7 days): long enough to serve it stale
   * when the service cannot be asked, short enough that Redis does not grow without end. The ledger,
   * derive indexes and claims are bookkeeping and keep their own lifetimes.
   */
  answerRetentionMs?: number;
  /** A claim not renewed for this long belongs to a replica that died (default 5 s; renewed every third of it). */
  claimTtlMs?: number;
  /** How often a waiter looks whether the claim is gone (default 25 ms). */
  pollMs?: number;
  /** Where cached answers go when they are kept apart from the state that must stay (an LRU instance). */
  answers?: RedisCommands;
}

/** Compare-and-set: `ARGV[1]` '0' = the key must be missing, '1' = it must hold `ARGV[2]`; then SET `ARGV[3]`. */
const CAS = new LuaScript(`
local v = redis.call('GET', KEYS[1])
if (ARGV[1] == '0' and v == false) or (ARGV[1] == '1' and v == ARGV[2]) then
  if ARGV[4] ~= '' then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) else redis.call('SET', KEYS[1], ARGV[3]) end
  return 1
end
return 0`);

/** Deletes a claim only while it is still ours (plain DEL could drop another replica's claim). */
const RELEASE = new LuaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`,
);
/** Renews a claim only while it is still ours. */
const RENEW = new LuaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`,
);

/** Claims live apart from what they claim: clearing or counting cached answers never sees them. */
export const CLAIM_PREFIX = 'dchub:claim:';

/** How many times `update` tries again when another writer changed the value in between. */
const UPDATE_ATTEMPTS = 64;

/** SCAN's MATCH is a glob: a prefix is matched literally. */
const globLiteral = (s: string) => s.replace(/[\\*?[\]]/g, (c) => `\\${c}`);

/** Waits `ms`, or less when `signal` aborts; its listener goes with it (a waiter polls many times). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Redis as core's key/value store, for a team's gateway whose replicas share one cache, ledger and
 * derive index: `update` is a compare-and-set retried until it holds (atomic across every replica,
 * whatever `change` computes, which a Lua script alone could not run), `claim` is SET NX PX with a
 * random token, renewed while held and released only by its holder, so one question is one request
 * for the whole team. The claim is an efficiency lock: a failover can grant it twice, which costs a
 * duplicate request, never an overspent allowance (the ledger's reservation is its own
 * compare-and-set). Errors of Redis are thrown to the caller, which decides what to do without it.
 */
export class RedisStore implements KeyValueStore {
  readonly shared = true;
  readonly #ns: string;
  readonly #retention: number;
  readonly #claimTtl: number;
  readonly #poll: number;

  constructor(
    private readonly redis: RedisCommands,
    private readonly opts: RedisStoreOptions = {},
  ) {
    this.#ns = opts.namespace ?? '';
    this.#retention = opts.answerRetentionMs ?? 7 * 86_400_000;
    this.#claimTtl = opts.claimTtlMs ?? 5_000;
    this.#poll = opts.pollMs ?? 25;
  }

  /** Cached answers (not their derive indexes) may live on a separate instance and expire. */
  #isAnswer(key: string): boolean {
    return key.startsWith(CACHE_KEY_PREFIX) && !key.includes(':derive-index ');
  }
  #client(key: string): RedisCommands {
    return this.opts.answers && this.#isAnswer(key) ? this.opts.answers : this.redis;
  }
  #k(key: string): string {
    return this.#ns + key;
  }

  async get(key: string): Promise<string | undefined> {
    const v = await this.#client(key).get(this.#k(key));
    return typeof v === 'string' ? v : undefined;
  }

  async set(key: string, value: string): Promise<void> {
    await this.#client(key).set(this.#k(key), value, this.#isAnswer(key) ? { PX: this.#retention } : undefined);
  }

  async delete(key: string): Promise<void> {
    await this.#client(key).del(this.#k(key));
  }

  async keys(prefix: string): Promise<string[]> {
    const clients = new Set([this.redis, ...(this.opts.answers ? [this.opts.answers] : [])]);
    const found = new Set<string>();
    for (const client of clients) {
      let cursor = '0';
      do {
        const page = await client.scan(cursor, { MATCH: `${globLiteral(this.#k(prefix))}*`, COUNT: 500 });
        cursor = String(page.cursor);
        for (const k of page.keys) found.add(k.slice(this.#ns.length));
      } while (cursor !== '0');
    }
    return [...found];
  }

  /**
   * Reads, changes and writes one value atomically across every replica: the write happens only if
   * the value is still what `change` saw, else `change` runs again on the newer value.
   */
  async update(key: string, change: (current: string | undefined) => string | undefined): Promise<void> {
    const client = this.#client(key);
    const k = this.#k(key);
    const ttl = this.#isAnswer(key) ? String(this.#retention) : '';
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const raw = await client.get(k);
      const current = typeof raw === 'string' ? raw : undefined;
      const next = change(current);
      if (next === undefined) return;
      const done = await CAS.run(client, {
        keys: [k],
        arguments: [current === undefined ? '0' : '1', current ?? '', next, ttl],
      });
      if (Number(done) === 1) return;
      // Another writer got there first: back off a little (more each time) and read again.
      await sleep(Math.random() * Math.min(50, 2 + attempt * 2));
    }
    throw new Error(`redis: ${key.split(':')[1] ?? 'a value'} changed under ${UPDATE_ATTEMPTS} attempts to update it`);
  }

  /**
   * One replica fetches `key` at a time: the first gets a release function (its claim renewed while
   * it works); the others wait until the claim is released or lapses, at most `waitMs`, then get
   * 'waited' and read what was stored.
   */
  async claim(key: string, opts: { waitMs: number; signal?: AbortSignal }): Promise<(() => Promise<void>) | 'waited'> {
    const k = this.#k(`${CLAIM_PREFIX}${key}`);
    const token = crypto.randomUUID();
    const got = await this.redis.set(k, token, { NX: true, PX: this.#claimTtl });
    if (got === 'OK') {
      const renew = setInterval(
        () => void RENEW.run(this.redis, { keys: [k], arguments: [token, String(this.#claimTtl)] }).catch(() => {}),
        Math.max(50, Math.floor(this.#claimTtl / 3)),
      );
      renew.unref?.();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        await RELEASE.run(this.redis, { keys: [k], arguments: [token] }).catch(() => undefined);
      };
    }
    const until = Date.now() + opts.waitMs;
    while (Date.now() < until && !opts.signal?.aborted) {
      await sleep(this.#poll, opts.signal);
      if ((await this.redis.get(k)) === null) break;
    }
    return 'waited';
  }
}
