import { hostname } from 'node:os';
import { DAILY_ALLOWANCE, MemoryStore } from '@dchub/core';
import { RedisStore } from '@dchub/core/node';
import type { GatewayConfig } from './config.js';
import { Authenticator } from './auth.js';
import { DegradedSpend } from './degraded.js';
import { createLogger, type GatewayLogger } from './logging.js';
import { GatewayMetrics } from './metrics.js';
import { OidcVerifier } from './oidc.js';
import { RecentTokens } from './recent.js';
import { evictionPolicy, redisClient, type RedisClient } from './redis.js';
import { WatchedStore } from './sharedstore.js';
import { Team, type GatewayCaller, type TeamOptions } from './team.js';
import { TokenRegistry } from './tokens.js';
import { writeBack } from './writeback.js';

/** Policies under which Redis may evict the ledger and claims (they must stay). */
const EVICTING = /^(allkeys|volatile)-/;

export interface GatewayDeps {
  /** The clock (tests move time). */
  now?: () => number;
  /** Where the gateway says what happens (default: JSON lines on stdout at the configured level). */
  log?: GatewayLogger;
}

/**
 * One replica of the team gateway: its Redis clients, the team's caller over RedisStore (`shared`)
 * and over this replica's memory (`local`, used while Redis is unreachable, within the degraded
 * budget), the token registry, the authenticator, metrics and log. Nothing here answers HTTP.
 */
export class Gateway {
  readonly redis: RedisClient;
  readonly answersRedis: RedisClient | undefined;
  readonly store: RedisStore;
  readonly tokens: TokenRegistry;
  readonly authenticator: Authenticator;
  readonly shared: Team;
  readonly local: Team;
  readonly degraded: DegradedSpend;
  readonly recent = new RecentTokens();
  /** Verifies OIDC bearer tokens when an identity provider is configured. */
  readonly oidc: OidcVerifier | undefined;
  readonly metrics: GatewayMetrics;
  readonly log: GatewayLogger;
  /** This replica's name in notices and logs: its host and process. */
  readonly replica = `${hostname()}/${process.pid}`;
  readonly now: () => number;
  /** Shared state is in use: Redis is ready and what was spent without it has been written back. */
  #resumed = false;
  /** When Redis was lost (undefined while it is ready): tokens verified before it are still served. */
  #lostAt: number | undefined;
  #redisProblem: string | undefined = 'connecting to Redis';
  /** A warning about the server's configuration (an evicting memory policy). */
  redisWarning: string | undefined;
  /** Shutting down: readiness fails, in-flight calls drain. */
  stopping = false;

  constructor(
    readonly config: GatewayConfig,
    readonly deps: GatewayDeps = {},
  ) {
    this.now = deps.now ?? (() => Date.now());
    this.#lostAt = this.now();
    this.log = deps.log ?? createLogger(config.DCHUB_GATEWAY_LOG_LEVEL);
    this.redis = redisClient(config.REDIS_URL, (err) => this.#lost(err));
    this.redis.on('ready', () => void this.#ready());
    this.redis.on('end', () => this.#lost(new Error('connection closed')));
    this.answersRedis = config.REDIS_CACHE_URL ? redisClient(config.REDIS_CACHE_URL, () => undefined) : undefined;
    const ns = config.DCHUB_GATEWAY_NAMESPACE;
    this.store = new RedisStore(this.redis, {
      namespace: ns,
      ...(this.answersRedis ? { answers: this.answersRedis } : {}),
    });
    this.tokens = new TokenRegistry(this.redis, ns);
    this.metrics = new GatewayMetrics({
      teamAllowances: () => this.#teamAllowances(),
      degradedState: () => ({ degraded: !this.sharedUsable, left: this.degraded.left, spent: this.degraded.spent }),
    });
    const tier = config.DCHUB_UPSTREAM_TIER ?? (config.upstreamKey ? 'free' : 'anonymous');
    this.degraded = new DegradedSpend(config.DCHUB_GATEWAY_DEGRADED_FRACTION, DAILY_ALLOWANCE[tier] ?? 10);
    // The replica's memory: a copy of the answers it read or wrote through Redis, what it answers from without Redis.
    const memory = new MemoryStore();
    this.shared = new Team({
      ...this.#teamOptions('shared'),
      store: new WatchedStore(this.store, (err) => this.#sharedFailure(err), memory),
    });
    this.local = new Team({ ...this.#teamOptions('degraded'), store: memory, gate: this.degraded });
    this.oidc = OidcVerifier.of(config);
    this.authenticator = new Authenticator(this.redis, ns, this.tokens, this.shared, deps.now);
  }

  #teamOptions(mode: 'shared' | 'degraded'): Omit<TeamOptions, 'store'> {
    const c = this.config;
    return {
      baseUrl: c.DCHUB_UPSTREAM_URL,
      apiKey: c.upstreamKey,
      tier: c.DCHUB_UPSTREAM_TIER,
      derive: c.DCHUB_GATEWAY_DERIVE,
      timeoutMs: c.DCHUB_UPSTREAM_TIMEOUT * 1000,
      now: this.deps.now,
      onUpstream: (caller: GatewayCaller | undefined, status: number, seconds: number) => {
        this.metrics.upstream.inc({ mode, status: String(status) });
        this.metrics.upstreamDuration.observe({ mode }, seconds);
        if (caller) this.metrics.callerUpstream.inc({ caller: this.metrics.callerLabel(caller.name) });
      },
    };
  }

  /** Connects to Redis in the background (the gateway serves, degraded, until it answers). */
  start(): void {
    this.redis.connect().catch((err: unknown) => this.#lost(err as Error));
    this.answersRedis?.connect().catch(() => undefined);
  }

  async #ready(): Promise<void> {
    try {
      await this.writeBack();
    } catch {
      // Redis failed again while it was written to: the next 'ready' tries again (or a second from now, if ready).
      if (this.redis.isReady) setTimeout(() => void this.#ready(), 1000).unref();
      return;
    }
    if (!this.redis.isReady) return;
    const outage = this.#lostAt;
    this.#resumed = true;
    this.#redisProblem = undefined;
    this.#lostAt = undefined;
    const policy = await evictionPolicy(this.redis);
    this.redisWarning =
      policy && EVICTING.test(policy) && !this.answersRedis
        ? `Redis evicts keys (maxmemory-policy ${policy}): ledger counters and claims may be lost; use noeviction, or REDIS_CACHE_URL for answers`
        : undefined;
    const down = outage === undefined ? undefined : Math.round((this.now() - outage) / 1000);
    this.log.info(
      { redis: 'ready', ...(policy ? { policy } : {}), ...(down ? { unreachable_s: down } : {}) },
      'Redis is ready',
    );
    if (this.redisWarning) this.log.warn({ redis: 'policy' }, this.redisWarning);
  }

  #lost(err: Error): void {
    const was = this.#resumed;
    this.#resumed = false;
    this.#lostAt ??= this.now();
    this.#redisProblem = `Redis is unreachable (${err.message.split('\n')[0]?.slice(0, 120) || err.name})`;
    if (was && !this.stopping) this.log.warn({ redis: 'lost' }, this.#redisProblem);
  }

  /** A command of the shared path failed: the call that ran it is answered again locally (failover.ts). */
  #sharedFailure(err: Error): void {
    const ctx = this.shared.calls.getStore();
    if (ctx) ctx.sharedFailure ??= err;
    if (!this.redis.isReady) this.#lost(err);
  }

  /** Writes what this replica spent without Redis to the team's ledgers (once; again later for what failed). */
  writeBack(): Promise<void> {
    return writeBack(this);
  }

  /** Why the shared state cannot be used now (undefined: it can). */
  get redisProblem(): string | undefined {
    if (this.sharedUsable) return undefined;
    return (
      this.#redisProblem ?? (this.redis.isReady ? 'writing back what was spent without Redis' : 'Redis is not ready')
    );
  }

  /** Calls go through Redis (else through this replica's memory, within the degraded budget). */
  get sharedUsable(): boolean {
    return this.#resumed && this.redis.isReady;
  }

  /** When Redis was lost, or undefined while it is in use. */
  get lostAt(): number | undefined {
    return this.#lostAt;
  }

  /** The caller that answers now: the team's over Redis, or this replica's own while Redis is unusable. */
  team(): Team {
    return this.sharedUsable ? this.shared : this.local;
  }

  /** The one line every answer carries while this replica works without Redis. */
  degradedNotice(): string {
    return `served by gateway replica ${this.replica} without the team's shared cache (Redis unreachable); at most ${this.degraded.left} more upstream requests from this replica while it lasts`;
  }

  async #teamAllowances(): Promise<{ ledger: 'rest' | 'mcp'; limit: number; remaining: number }[]> {
    if (!this.redis.isReady) return [];
    try {
      const [rest, mcp] = await Promise.all([this.shared.ledger.snapshot(), this.shared.mcpLedger.snapshot()]);
      return [
        { ledger: 'rest', limit: rest.limit, remaining: rest.remaining },
        { ledger: 'mcp', limit: mcp.limit, remaining: mcp.remaining },
      ];
    } catch {
      return [];
    }
  }

  async close(): Promise<void> {
    if (this.redis.isReady && this.degraded.hasUnrecorded) await this.writeBack().catch(() => undefined);
    await Promise.allSettled([this.redis.close(), this.answersRedis?.close()]);
  }
}
