import { ENDPOINTS } from '@dchub/core';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The replica's Prometheus metrics (its own Registry: two gateways in one process never collide).
 * Labels are bounded: a route is an endpoint's path template (never the path as sent, never a
 * query), a cache status one of five words, a caller a token's name (at most MAX_CALLERS of them,
 * then "other"). No key, token or URL appears in a label or a value. The team's allowance is read
 * from Redis at scrape time, so every replica reports the same figure (scrape each replica; do not
 * sum it).
 */

const PREFIX = 'dchub_gateway_';
const MAX_CALLERS = 500;

/** Each endpoint's path (and its aliases) split into segments; `:name` segments match any one segment. */
const TEMPLATES = Object.values(ENDPOINTS)
  .flatMap((e) => [e.path, ...((e as { aliases?: readonly string[] }).aliases ?? [])])
  .map((path) => ({ path, segments: path.split('/') }))
  .sort((a, b) => literalCount(b.segments) - literalCount(a.segments));

function literalCount(segments: string[]): number {
  return segments.filter((s) => !s.startsWith(':')).length;
}

const OWN_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/mcp', '/openapi.json']);

/** The bounded route label of a request path: an endpoint's template, one of the gateway's own paths, or "other". */
export function routeLabel(path: string): string {
  if (OWN_PATHS.has(path)) return path;
  const segments = path.split('/');
  for (const t of TEMPLATES)
    if (t.segments.length === segments.length && t.segments.every((s, i) => s.startsWith(':') || s === segments[i]))
      return t.path;
  return path.startsWith('/api/') ? '/api/other' : 'other';
}

/** What the metrics read from the gateway at scrape time. */
export interface MetricsSource {
  /** The team's allowances (REST, MCP) as Redis holds them now (empty: Redis cannot say). */
  teamAllowances(): Promise<{ ledger: 'rest' | 'mcp'; limit: number; remaining: number }[]>;
  /** The degraded mode's state: whether the replica works without Redis, and what it may still spend. */
  degradedState(): { degraded: boolean; left: number; spent: number };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status' | 'cache'>;
  readonly duration: Histogram<'route' | 'cache'>;
  readonly upstream: Counter<'mode' | 'status'>;
  readonly upstreamDuration: Histogram<'mode'>;
  readonly callerCalls: Counter<'caller'>;
  readonly callerUpstream: Counter<'caller'>;
  readonly #callers = new Set<string>();

  constructor(source: MetricsSource) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.requests = new Counter({
      name: `${PREFIX}requests_total`,
      help: 'Requests answered, by route template, method, status and cache status (hit, miss, derived, stale, none)',
      labelNames: ['route', 'method', 'status', 'cache'] as const,
      registers,
    });
    this.duration = new Histogram({
      name: `${PREFIX}request_duration_seconds`,
      help: 'Time to answer a request, by route template and cache status',
      labelNames: ['route', 'cache'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.upstream = new Counter({
      name: `${PREFIX}upstream_requests_total`,
      help: 'Requests sent to the DC Hub service, by mode (shared: through Redis; degraded: without it) and status (0: no answer)',
      labelNames: ['mode', 'status'] as const,
      registers,
    });
    this.upstreamDuration = new Histogram({
      name: `${PREFIX}upstream_duration_seconds`,
      help: 'Time the DC Hub service took to answer one request',
      labelNames: ['mode'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.callerCalls = new Counter({
      name: `${PREFIX}caller_requests_total`,
      help: "Requests by caller (a gateway token's name) on this replica",
      labelNames: ['caller'] as const,
      registers,
    });
    this.callerUpstream = new Counter({
      name: `${PREFIX}caller_upstream_requests_total`,
      help: "Upstream requests caused by each caller (a gateway token's name) on this replica",
      labelNames: ['caller'] as const,
      registers,
    });
    this.#gauges(source);
  }

  #gauges(source: MetricsSource): void {
    const registers = [this.registry];
    // One read of Redis per scrape for both gauges (the registry collects them concurrently). Labelled by
    // ledger, so that a scrape while Redis is unreachable shows no figure rather than a 0.
    let reading: ReturnType<MetricsSource['teamAllowances']> | undefined;
    const read = () => (reading ??= source.teamAllowances().finally(() => setTimeout(() => (reading = undefined), 0)));
    const allowanceGauge = (name: string, help: string, pick: (a: { limit: number; remaining: number }) => number) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        labelNames: ['ledger'] as const,
        registers,
        async collect() {
          const all = await read();
          this.reset();
          for (const a of all) this.set({ ledger: a.ledger }, pick(a));
        },
      });
    allowanceGauge(
      'team_allowance_remaining',
      'Upstream requests (rest) and MCP tool calls (mcp) left today for the whole team, read from Redis at scrape time',
      (a) => a.remaining,
    );
    allowanceGauge(
      'team_allowance_limit',
      "The team's daily allowance (rest: upstream requests, mcp: tool calls), read from Redis at scrape time",
      (a) => a.limit,
    );
    new Gauge({
      name: `${PREFIX}degraded`,
      help: '1 while this replica works without Redis (its own memory cache, a fraction of the allowance)',
      registers,
      collect() {
        this.set(source.degradedState().degraded ? 1 : 0);
      },
    });
    new Gauge({
      name: `${PREFIX}degraded_upstream_left`,
      help: 'Upstream requests this replica may still make without Redis (0 outside the degraded mode)',
      registers,
      collect() {
        const s = source.degradedState();
        this.set(s.degraded ? s.left : 0);
      },
    });
  }

  /** A caller's name as a label: the first MAX_CALLERS names seen, then "other" (bounded series). */
  callerLabel(name: string): string {
    if (this.#callers.has(name)) return name;
    if (this.#callers.size >= MAX_CALLERS) return 'other';
    this.#callers.add(name);
    return name;
  }
}
