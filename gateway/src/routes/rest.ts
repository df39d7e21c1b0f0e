import type { ServerResponse } from 'node:http';
import type { Context, Hono } from 'hono';
import { queryWithoutCredentials, relayRequest, type RelayAnswer } from '@dchub/core/node';
import { ANSWER_HEADER, readAnswerHeader } from '@dchub/core';
import type { GatewayEnv } from '../context.js';
import { serveCall } from '../failover.js';
import { allowanceHeaders } from '../headers.js';

/**
 * Every REST path of the interface (and /openapi.json), answered by core's relay through the
 * team's client: its cache, its ledger and derive index in Redis, the organisation's key added
 * there and nowhere else. The route only carries the request in and the answer out.
 */

/** How the answer was obtained, in the one word of X-DCHub-Cache. */
export function cacheStatus(answer: RelayAnswer): 'hit' | 'miss' | 'derived' | 'stale' | undefined {
  const facts = readAnswerHeader(new Headers({ [ANSWER_HEADER]: answer.headers[ANSWER_HEADER] ?? '' }));
  if (!facts) return undefined;
  if (facts.stale) return 'stale';
  if (facts.derivedFrom) return 'derived';
  return facts.fromCache ? 'hit' : 'miss';
}

/**
 * Aborted when the caller goes away before its answer is written (an upstream request it alone waits for is then
 * dropped). Made from Node's response: the request's own `signal` would make the server build a whole Request.
 */
function callerGone(c: Context<GatewayEnv>): AbortSignal {
  const res = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!res) return c.req.raw.signal;
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

async function answerRest(c: Context<GatewayEnv>): Promise<Response> {
  const { gateway, auth } = c.var;
  const url = new URL(c.req.url);
  const method = c.req.method.toUpperCase();
  const body = method === 'POST' ? await c.req.text() : undefined;
  const params = { method, path: url.pathname.slice(1), query: queryWithoutCredentials(url.search), body };
  const served = await serveCall(gateway, auth, (team) => relayRequest(team, params, callerGone(c)));
  const answer = served.value;
  if (served.degraded) c.set('degraded', true);
  const status = cacheStatus(answer);
  c.set('cacheStatus', status ?? (answer.status >= 400 ? 'error' : 'miss'));
  const headers = new Headers(answer.headers);
  if (status) headers.set('X-DCHub-Cache', status);
  const allowances = await allowanceHeaders(gateway, auth, status === 'miss', served);
  for (const [k, v] of Object.entries(allowances)) headers.set(k, v);
  return new Response(answer.body, { status: answer.status, headers });
}

export function registerRest(app: Hono<GatewayEnv>): void {
  app.all('/api/*', answerRest);
  app.all('/openapi.json', answerRest);
}
