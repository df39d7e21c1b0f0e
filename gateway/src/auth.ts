import { QuotaLedger } from '@dchub/core';
import { LuaScript, type RedisCommands } from '@dchub/core/node';
import { hashToken, parseEntry, type TokenRegistry } from './tokens.js';
import type { GatewayCaller, Team } from './team.js';

/**
 * Who is calling: the credential a host sends the way it sends a key (`X-API-Key`, or
 * `Authorization: Bearer`), looked up in one Redis round trip that also counts the call and reads
 * the caller's share and the team's allowance (so a cached answer costs at most one more trip).
 */

/** A caller known to the gateway, the states its answer's headers are made from, and its calls today. */
export interface Authenticated {
  caller: GatewayCaller;
  states: { team?: string; share?: string };
  callsToday: number;
  /** Verified from this replica's memory of recent tokens (Redis could not be asked): served without Redis. */
  fromMemory?: boolean;
}

/** The credential of a request, or undefined when none was sent (the value is never logged or echoed). */
export function credentialOf(headers: Headers): string | undefined {
  const key = headers.get('x-api-key')?.trim();
  if (key) return key;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1];
  return bearer || undefined;
}

/** One round trip: the token's entry, and if it exists, its call counted and both allowances read. */
const LOOKUP = new LuaScript(`
local e = redis.call('GET', KEYS[1])
if not e then return false end
local n = redis.call('INCR', KEYS[4])
if n == 1 then redis.call('PEXPIRE', KEYS[4], ARGV[1]) end
return {e, redis.call('GET', KEYS[2]) or '', redis.call('GET', KEYS[3]) or '', tostring(n)}`);

/** One round trip for a caller known otherwise (an OIDC subject): its call counted, both allowances read. */
const LOOKUP_CALLER = new LuaScript(`
local n = redis.call('INCR', KEYS[3])
if n == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[1]) end
return {redis.call('GET', KEYS[1]) or '', redis.call('GET', KEYS[2]) or '', tostring(n)}`);

/** Calls are counted per UTC day; a day's counters are kept two days (token list reads today's). */
export const COUNTER_TTL_MS = 2 * 86_400_000;

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class Authenticator {
  constructor(
    private readonly redis: RedisCommands,
    private readonly namespace: string,
    private readonly tokens: TokenRegistry,
    private readonly team: Team,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The share ledger's id of a token: from its hash (a token issued again starts a new share). */
  static shareId(hash: string): string {
    return `gw-share:${hash.slice(0, 24)}`;
  }

  /** The key of a token's call counter today. */
  counterKey(hash: string, day = utcDay(this.now())): string {
    return `${this.namespace}calls:${day}:${hash.slice(0, 24)}`;
  }

  /** A caller verified elsewhere (an OIDC subject, `id` its hash): its call counted, its share and the team's read. */
  async authenticateCaller(caller: GatewayCaller, id: string): Promise<Authenticated> {
    const shareKey = new QuotaLedger(this.team.store, caller.shareId).storeKey;
    const reply = (await LOOKUP_CALLER.run(this.redis, {
      keys: [this.namespace + shareKey, this.namespace + this.team.ledger.storeKey, this.counterKey(id)],
      arguments: [String(COUNTER_TTL_MS)],
    })) as string[];
    const [share, team, calls] = reply;
    return {
      caller,
      states: { ...(team ? { team } : {}), ...(share ? { share } : {}) },
      callsToday: Number(calls) || 0,
    };
  }

  /** The caller of a gateway token, or undefined when no such token exists (never issued, or revoked). */
  async authenticate(credential: string): Promise<Authenticated | undefined> {
    const hash = hashToken(credential);
    const shareId = Authenticator.shareId(hash);
    const shareKey = new QuotaLedger(this.team.store, shareId).storeKey;
    const reply = await LOOKUP.run(this.redis, {
      keys: [
        this.tokens.entryKey(hash),
        this.namespace + shareKey,
        this.namespace + this.team.ledger.storeKey,
        this.counterKey(hash),
      ],
      arguments: [String(COUNTER_TTL_MS)],
    });
    if (!Array.isArray(reply)) return undefined;
    const [raw, share, team, calls] = reply as string[];
    const entry = parseEntry(raw);
    if (!entry) return undefined;
    return {
      caller: { name: entry.name, ...(entry.share ? { share: entry.share } : {}), shareId },
      states: { ...(team ? { team } : {}), ...(share ? { share } : {}) },
      callsToday: Number(calls) || 0,
    };
  }
}
