import { RedisStore } from '@dchub/core/node';
import type { GatewayConfig } from './config.js';
import { Authenticator } from './auth.js';
import { evictionPolicy, redisClient, type RedisClient } from './redis.js';
import { Team } from './team.js';
import { TokenRegistry } from './tokens.js';

/** Policies under which Redis may evict the ledger and claims (they must stay). */
const EVICTING = /^(allkeys|volatile)-/;

export interface GatewayDeps {
  /** The clock (tests move time). */
  now?: () => number;
  /** Where the gateway says what happens (pino's logger in `serve`). */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * One replica of the team gateway: its Redis clients, the team's caller over RedisStore, the
 * token registry and the authenticator. Nothing here answers HTTP (app.ts does).
 */
export class Gateway {
  readonly redis: RedisClient;
  readonly answersRedis: RedisClient | undefined;
  readonly store: RedisStore;
  readonly tokens: TokenRegistry;
  readonly authenticator: Authenticator;
  readonly #team: Team;
  /** Why Redis is not usable right now, or undefined while it is. */
  #redisProblem: string | undefined = 'connecting to Redis';
  /** A warning about the server's configuration (an evicting memory policy). */
  redisWarning: string | undefined;

  constructor(
    readonly config: GatewayConfig,
    readonly deps: GatewayDeps = {},
  ) {
    const onError = (err: Error) => this.#lost(err);
    this.redis = redisClient(config.REDIS_URL, onError);
    this.redis.on('ready', () => void this.#ready());
    this.redis.on('end', () => this.#lost(new Error('connection closed')));
    this.answersRedis = config.REDIS_CACHE_URL ? redisClient(config.REDIS_CACHE_URL, () => undefined) : undefined;
    const ns = config.DCHUB_GATEWAY_NAMESPACE;
    this.store = new RedisStore(this.redis, {
      namespace: ns,
      ...(this.answersRedis ? { answers: this.answersRedis } : {}),
    });
    this.tokens = new TokenRegistry(this.redis, ns);
    this.#team = new Team({
      store: this.store,
      baseUrl: config.DCHUB_UPSTREAM_URL,
      apiKey: config.upstreamKey,
      tier: config.DCHUB_UPSTREAM_TIER,
      derive: config.DCHUB_GATEWAY_DERIVE,
      timeoutMs: config.DCHUB_UPSTREAM_TIMEOUT * 1000,
      now: deps.now,
    });
    this.authenticator = new Authenticator(this.redis, ns, this.tokens, this.#team, deps.now);
  }

  /** Connects to Redis in the background (the gateway serves, degraded, until it answers). */
  start(): void {
    this.redis.connect().catch((err: unknown) => this.#lost(err as Error));
    this.answersRedis?.connect().catch(() => undefined);
  }

  async #ready(): Promise<void> {
    this.#redisProblem = undefined;
    const policy = await evictionPolicy(this.redis);
    this.redisWarning =
      policy && EVICTING.test(policy) && !this.answersRedis
        ? `Redis evicts keys (maxmemory-policy ${policy}): ledger counters and claims may be lost; use noeviction, or REDIS_CACHE_URL for answers`
        : undefined;
    this.deps.log?.info({ redis: 'ready', ...(policy ? { policy } : {}) }, 'Redis is ready');
    if (this.redisWarning) this.deps.log?.warn({ redis: 'policy' }, this.redisWarning);
  }

  #lost(err: Error): void {
    const was = this.#redisProblem;
    this.#redisProblem = `Redis is unreachable (${err.message.split('\n')[0]?.slice(0, 120) ?? 'error'})`;
    if (!was) this.deps.log?.warn({ redis: 'lost' }, this.#redisProblem);
  }

  /** Why the shared state cannot be used now (undefined: Redis is ready). */
  get redisProblem(): string | undefined {
    return this.redis.isReady ? undefined : (this.#redisProblem ?? 'Redis is not ready');
  }

  /** The caller that answers now: the team's, over Redis. */
  team(): Team {
    return this.#team;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.redis.close(), this.answersRedis?.close()]);
  }
}
