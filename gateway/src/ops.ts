import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context, ErrorHandler, Hono, MiddlewareHandler } from 'hono';
import { VERSION } from '@dchub/core';
import type { GatewayEnv } from './context.js';
import type { Gateway } from './gateway.js';
import { NOTICE_HEADER } from './headers.js';
import { routeLabel } from './metrics.js';

/**
 * The replica's operations: one log line and the metrics of each request, the degraded notice on
 * each answer served without Redis, and its own paths — /healthz (the process answers), /readyz
 * (whether to send it calls) and /metrics (Prometheus).
 */

/** Logs and measures each request; adds the notice to an answer served without Redis. */
export function observe(gateway: Gateway): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    if (c.get('degraded') || gateway.redisProblem) c.res.headers.set(NOTICE_HEADER, gateway.degradedNotice());
    const route = routeLabel(c.req.path);
    const seconds = (performance.now() - started) / 1000;
    const cache = c.get('cacheStatus') ?? 'none';
    const caller = c.get('auth')?.caller.name;
    const status = c.res.status;
    gateway.metrics.requests.inc({ route, method: c.req.method, status: String(status), cache });
    gateway.metrics.duration.observe({ route, cache }, seconds);
    if (caller) gateway.metrics.callerCalls.inc({ caller: gateway.metrics.callerLabel(caller) });
    if (route === '/healthz' || route === '/readyz' || route === '/metrics') return;
    gateway.log.info(
      {
        method: c.req.method,
        route,
        status,
        cache,
        ...(caller ? { caller } : {}),
        ms: Math.round(seconds * 1000),
        ...(c.get('degraded') || gateway.redisProblem ? { degraded: true } : {}),
      },
      'request',
    );
  };
}

/**
 * What a request that failed unexpectedly gets: a JSON 500, and one log line with the error's name
 * and first line (core's errors never carry a key). A call whose client went away is not an error
 * of the gateway: 499 (nobody reads it), logged as such.
 */
export function answerError(gateway: Gateway): ErrorHandler<GatewayEnv> {
  return (err, c) => {
    if ((err instanceof DOMException && err.name === 'AbortError') || c.req.raw.signal.aborted)
      return new Response(JSON.stringify({ error: 'client_closed_request' }), {
        status: 499,
        headers: { 'content-type': 'application/json' },
      });
    gateway.log.error(
      { route: routeLabel(c.req.path), error: err.name, message: err.message.split('\n')[0].slice(0, 200) },
      'unexpected error',
    );
    return c.json({ error: 'internal_error', message: 'the gateway could not answer this request (logged)' }, 500);
  };
}

const sha = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may read /metrics: with DCHUB_GATEWAY_METRICS_TOKEN, whoever sends it as a bearer token;
 * without, only a client on this host that came through no proxy (the figures tell how the team
 * works; they carry no secret, but need not be public).
 */
function mayReadMetrics(c: Context<GatewayEnv>, token: string | undefined): boolean {
  if (token) {
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    return timingSafeEqual(sha(sent), sha(token));
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return loopback && !c.req.header('x-forwarded-for') && !c.req.header('forwarded');
}

export function registerOps(app: Hono<GatewayEnv>, gateway: Gateway): void {
  app.get('/healthz', (c) => c.json({ status: 'ok', version: VERSION }));
  // Degraded is still ready (200): Redis is shared, so when it is down every replica is degraded, and a
  // load balancer that dropped them all would leave the team with nothing; a degraded replica answers
  // from its memory within its budget. Only a replica that is shutting down asks to be taken out (503).
  app.get('/readyz', (c) => {
    if (gateway.stopping) return c.json({ status: 'stopping', version: VERSION }, 503);
    const problem = gateway.redisProblem;
    return c.json(
      { status: problem ? 'degraded' : 'ready', ...(problem ? { reason: problem } : {}), version: VERSION },
      200,
    );
  });
  app.get('/metrics', async (c) => {
    if (!mayReadMetrics(c, gateway.config.DCHUB_GATEWAY_METRICS_TOKEN))
      return c.json(
        {
          error: 'forbidden',
          message: gateway.config.DCHUB_GATEWAY_METRICS_TOKEN
            ? 'send the metrics token as Authorization: Bearer'
            : '/metrics answers this host only, unless DCHUB_GATEWAY_METRICS_TOKEN is set',
        },
        403,
      );
    const text = await gateway.metrics.registry.metrics();
    return c.text(text, 200, { 'Content-Type': gateway.metrics.registry.contentType });
  });
}
