import { LuaScript, type RedisCommands } from '@dchub/core/node';
import { COUNTER_TTL_MS } from './auth.js';
import type { DegradedSpend, UnrecordedSpend } from './degraded.js';
import type { GatewayLogger } from './logging.js';
import type { Team } from './team.js';

/**
 * When Redis is back, what this replica spent without it is added to the team's ledgers (core's
 * `QuotaLedger.record`), to each caller's share and to each token's count of today's calls, once:
 * it is taken out of the replica's memory before it is written, and only a part whose writing
 * failed is put back for the next attempt. A write whose reply was lost may count twice: the
 * ledgers then hold back more than was spent, never less.
 */

const ADD_CALLS = new LuaScript(`
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`);

/** What writing back needs of a replica (its gateway). */
export interface WriteBackTarget {
  readonly degraded: DegradedSpend;
  readonly shared: Team;
  readonly redis: Pick<RedisCommands, 'eval'>;
  readonly log: GatewayLogger;
}

/** One writing at a time per replica (Redis may come and go while one runs). */
const chains = new WeakMap<WriteBackTarget, Promise<void>>();

/** Writes back what is unrecorded; rejects when a part could not be written (it is kept for the next try). */
export function writeBack(g: WriteBackTarget): Promise<void> {
  const run = () => writeOnce(g);
  const next = (chains.get(g) ?? Promise.resolve()).then(run, run);
  chains.set(
    g,
    next.catch(() => undefined),
  );
  return next;
}

async function writeOnce(g: WriteBackTarget): Promise<void> {
  if (!g.degraded.hasUnrecorded) {
    g.degraded.closeIfSettled();
    return;
  }
  const part = g.degraded.takeUnrecorded();
  const failed: UnrecordedSpend = { ledgers: new Map(), shares: new Map(), calls: new Map() };
  for (const [id, n] of part.ledgers) {
    const ledger = [g.shared.ledger, g.shared.mcpLedger].find((l) => l.callerId === id);
    await ledger?.record(n).catch(() => failed.ledgers.set(id, n));
  }
  for (const [id, s] of part.shares) {
    await g.shared
      .shareLedger(s.caller)
      ?.record(s.n)
      .catch(() => failed.shares.set(id, s));
  }
  for (const [key, n] of part.calls) {
    await ADD_CALLS.run(g.redis, { keys: [key], arguments: [String(n), String(COUNTER_TTL_MS)] }).catch(() =>
      failed.calls.set(key, n),
    );
  }
  g.degraded.restore(failed);
  const upstream = [...part.ledgers.values()].reduce((a, b) => a + b, 0);
  const done = failed.ledgers.size + failed.shares.size + failed.calls.size === 0;
  g.log.info(
    { redis: 'write-back', upstream, callers: part.shares.size, complete: done },
    done
      ? `added the ${upstream} upstream requests made without Redis to the team's ledger`
      : 'Redis failed again while the gateway wrote back what it spent without it; it will try again',
  );
  if (done) g.degraded.closeIfSettled();
  if (!done) throw new Error('write-back incomplete');
}
