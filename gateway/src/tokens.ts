import { createHash, randomBytes } from 'node:crypto';
import { LuaScript, type RedisCommands } from '@dchub/core/node';

/**
 * Gateway tokens: each analyst's (or notebook server's) credential for the team gateway. Only a
 * SHA-256 of a token is stored (a token is 32 random bytes, so a fast hash is enough), under its
 * name; revoking deletes it, so the next call with it is refused. A token may carry a daily share:
 * the upstream requests it may cause in a day.
 */

export interface TokenEntry {
  name: string;
  /** Upstream requests a day this token may cause; undefined: no share of its own (the team's allowance). */
  share?: number;
  created: string;
}

/** A listed token: its entry and the hash it is stored under (never the token). */
export type ListedToken = TokenEntry & { hash: string };

/** What a name may be: it shows in `token list`, logs and metrics (never a token). */
export const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const TOKEN_PREFIX = 'dchg_';

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A refusal of `token add` / `revoke`, in one line. */
export class TokenError extends Error {}

/** Adds a name and hash only when the name is free (one round trip, atomic). */
const ADD = new LuaScript(`
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1`);

/** Removes a name and its hash together. */
const REVOKE = new LuaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1`);

export class TokenRegistry {
  constructor(
    private readonly redis: RedisCommands & {
      hGetAll(key: string): Promise<unknown>;
      hGet(key: string, field: string): Promise<unknown>;
      mGet(keys: string[]): Promise<unknown>;
    },
    private readonly namespace: string,
  ) {}

  get #names(): string {
    return `${this.namespace}tokens`;
  }
  /** The key of one token's entry, by its hash. */
  entryKey(hash: string): string {
    return `${this.namespace}token:${hash}`;
  }

  /** A new token for `name`; its entry stored under its hash. Refused when the name is taken. */
  async add(name: string, share: number | undefined): Promise<string> {
    if (!TOKEN_NAME.test(name))
      throw new TokenError(
        `token name ${JSON.stringify(name.slice(0, 70))} must be 1 to 64 letters, digits, . _ @ or -, starting with a letter or digit`,
      );
    if (share !== undefined && !(Number.isInteger(share) && share > 0))
      throw new TokenError(`--daily-share must be a whole number above 0, got ${String(share)}`);
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const hash = hashToken(token);
    const entry: TokenEntry = { name, ...(share ? { share } : {}), created: new Date().toISOString() };
    const added = await ADD.run(this.redis, {
      keys: [this.#names, this.entryKey(hash)],
      arguments: [name, hash, JSON.stringify(entry)],
    });
    if (Number(added) !== 1) throw new TokenError(`a token named ${name} exists; revoke it first`);
    return token;
  }

  /** Revokes `name`'s token: false when there was none. */
  async revoke(name: string): Promise<boolean> {
    const hash = await this.redis.hGet(this.#names, name);
    if (typeof hash !== 'string') return false;
    const done = await REVOKE.run(this.redis, { keys: [this.#names, this.entryKey(hash)], arguments: [name, hash] });
    return Number(done) === 1;
  }

  /** Every token's entry with its hash (what its counters are keyed by), by name: two round trips. */
  async list(): Promise<ListedToken[]> {
    const names = (await this.redis.hGetAll(this.#names)) as Record<string, string>;
    const hashes = Object.values(names);
    if (!hashes.length) return [];
    const raw = (await this.redis.mGet(hashes.map((h) => this.entryKey(h)))) as unknown[];
    const out: ListedToken[] = [];
    hashes.forEach((hash, i) => {
      const e = parseEntry(raw[i]);
      if (e) out.push({ ...e, hash });
    });
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

/** A stored entry, or undefined when it does not read as one. */
export function parseEntry(raw: unknown): TokenEntry | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const e = JSON.parse(raw) as Partial<TokenEntry>;
    if (typeof e.name !== 'string' || !TOKEN_NAME.test(e.name)) return undefined;
    const share = typeof e.share === 'number' && e.share > 0 ? e.share : undefined;
    return { name: e.name, ...(share ? { share } : {}), created: String(e.created ?? '') };
  } catch {
    return undefined;
  }
}

/** Whether a credential looks like a gateway token (others may be OIDC JWTs). */
export const isGatewayToken = (s: string) => s.startsWith(TOKEN_PREFIX);
