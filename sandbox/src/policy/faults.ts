import type { Context, Next } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { Rng } from '../rng.js';

/**
 * Fault injection for tests (POST /_sandbox/faults): added latency, 5xx, 429 with Retry-After,
 * a reset connection, a truncated body, malformed JSON, schema drift, a CDN gateway's HTML error
 * page (502, or Cloudflare's 524), a redirect (to another origin, say). Decisions come from a
 * seeded sequence, so a given request order meets the same faults every run.
 */
export const FaultRule = z
  .object({
    path_prefix: z.string().startsWith('/'),
    kind: z.enum([
      'latency',
      'status',
      'rate_limit',
      'reset',
      'truncate',
      'malformed_json',
      'schema_drift',
      'html_gateway',
      'redirect',
    ]),
    /** Probability per matching request, 0..1 (default 1). */
    rate: z.number().min(0).max(1).default(1),
    /** Apply to at most this many requests, then retire the rule. */
    count: z.number().int().positive().optional(),
    /** latency: milliseconds to add. */
    latency_ms: z.number().int().min(0).max(60_000).optional(),
    /** status: 500, 502 or 503. */
    status: z.union([z.literal(500), z.literal(502), z.literal(503)]).optional(),
    /** rate_limit: seconds in Retry-After. */
    retry_after: z.number().int().min(0).max(86_400).optional(),
    /** html_gateway: 502 (bad gateway, default) or 524 (origin timeout, as Cloudflare serves it). */
    gateway_status: z.union([z.literal(502), z.literal(524)]).optional(),
    /** redirect: an absolute http(s) URL; the request's path and query are appended when it ends with `/`. */
    location: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    /** redirect: 301, 302 (default), 307 or 308. */
    redirect_status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).optional(),
  })
  .refine((r) => r.kind !== 'redirect' || r.location !== undefined, {
    message: 'a redirect rule needs a location',
    path: ['location'],
  });
export type FaultRuleT = z.infer<typeof FaultRule>;
export const FaultRules = z.union([
  z.array(FaultRule),
  z.object({ rules: z.array(FaultRule) }).transform((o) => o.rules),
]);

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** Faults that spoil the route's own answer, after it ran. */
type BodyFault = 'truncate' | 'malformed_json' | 'schema_drift';
const isBodyFault = (k: FaultRuleT['kind']): k is BodyFault =>
  k === 'truncate' || k === 'malformed_json' || k === 'schema_drift';

interface ActiveRule extends FaultRuleT {
  applied: number;
}

type Env = {
  incoming?: { socket?: { destroy(): void } };
  outgoing?: {
    writeHead(s: number, h: Record<string, string>): void;
    write(b: string): void;
    socket?: { destroy(): void } | null;
  };
};

export class FaultInjector {
  #rules: ActiveRule[] = [];
  #rng: Rng;
  readonly #seed: string;

  constructor(seed: string) {
    this.#seed = seed;
    this.#rng = new Rng(`${seed}|faults`);
  }

  set(rules: FaultRuleT[]): void {
    this.#rules = rules.map((r) => ({ ...r, applied: 0 }));
    this.#rng = new Rng(`${this.#seed}|faults`);
  }

  clear(): void {
    this.#rules = [];
  }

  list(): FaultRuleT[] {
    return this.#rules.map(({ applied: _applied, ...r }) => r);
  }

  #pick(path: string): ActiveRule[] {
    const hits: ActiveRule[] = [];
    for (const r of this.#rules) {
      if (!path.startsWith(r.path_prefix)) continue;
      if (r.count !== undefined && r.applied >= r.count) continue;
      if (r.rate < 1 && this.#rng.next() >= r.rate) continue;
      r.applied++;
      hits.push(r);
    }
    return hits;
  }

  /** Hono middleware; a no-op while no rule is set. */
  middleware = async (c: Context, next: Next): Promise<Response | void> => {
    if (!this.#rules.length) return next();
    const path = new URL(c.req.url).pathname;
    if (path.startsWith('/_sandbox/')) return next();
    const hits = this.#pick(path);
    if (!hits.length) return next();
    for (const r of hits) {
      if (r.kind === 'latency') await new Promise((res) => setTimeout(res, r.latency_ms ?? 1000));
    }
    for (const r of hits) {
      const answer = answerInstead(r, c);
      if (answer) return answer;
    }
    await next();
    const spoil = hits.map((r) => r.kind).find(isBodyFault);
    if (spoil) await corruptAnswer(c, spoil);
  };
}

/** The answer a fault gives in place of the route's (a status, a 429, a reset, a gateway page, a redirect), if any. */
function answerInstead(r: FaultRuleT, c: Context): Response | undefined {
  switch (r.kind) {
    case 'status':
      return c.json(
        { error: 'injected_fault', message: `Injected ${r.status ?? 500} from the sandbox fault rules` },
        r.status ?? 500,
      );
    case 'rate_limit': {
      const s = r.retry_after ?? 30;
      c.header('Retry-After', String(s));
      return c.json(
        { error: 'rate_limit_exceeded', message: `Too many requests. Retry after ${s}s.`, retry_after: s },
        429,
      );
    }
    case 'reset':
      (c.env as Env).incoming?.socket?.destroy();
      return RESPONSE_ALREADY_SENT;
    case 'html_gateway':
      return gatewayPage(r.gateway_status ?? 502, new URL(c.req.url).host);
    case 'redirect': {
      const url = new URL(c.req.url);
      const target = r.location!.endsWith('/')
        ? r.location!.replace(/\/$/, '') + url.pathname + url.search
        : r.location!;
      return new Response(null, { status: r.redirect_status ?? 302, headers: { Location: target } });
    }
    default:
      return undefined;
  }
}

/** The route's answer spoiled: cut half way, malformed JSON, or its shape drifted. */
async function corruptAnswer(c: Context, kind: BodyFault): Promise<void> {
  // An answer without a body (304 Not Modified, 204) has nothing to corrupt.
  if (NULL_BODY_STATUS.has(c.res.status) || c.res.body === null) return;
  // Work on the plain text: the answer may be gzip-encoded (memoized answers are).
  const bytes = Buffer.from(await c.res.clone().arrayBuffer());
  const text = (c.res.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
  const headers = new Headers(c.res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  const status = c.res.status;
  // Hono copies the old answer's headers onto a new one: drop the old answer first.
  c.res = undefined;
  const outgoing = (c.env as Env).outgoing;
  if (kind === 'truncate' && outgoing) {
    sendHalfAndDrop(outgoing, status, headers, text);
    c.res = RESPONSE_ALREADY_SENT;
  } else if (kind === 'truncate') {
    // No socket to drop (an in-process request): the body simply ends half way.
    c.res = new Response(text.slice(0, Math.floor(text.length / 2)), { status, headers });
  } else if (kind === 'malformed_json') {
    c.res = new Response(text.slice(0, Math.max(1, Math.floor(text.length * 0.6))) + '\u0000}{', { status, headers });
  } else {
    c.res = new Response(driftedText(text), { status, headers });
  }
}

/** Promises the whole body, sends half, drops the connection. */
function sendHalfAndDrop(out: NonNullable<Env['outgoing']>, status: number, plain: Headers, text: string): void {
  const headers: Record<string, string> = {};
  plain.forEach((v, k) => (headers[k] = v));
  headers['content-length'] = String(Buffer.byteLength(text));
  out.writeHead(status, headers);
  out.write(text.slice(0, Math.floor(text.length / 2)));
  out.socket?.destroy();
}

/** The JSON text with its shape drifted; text that is not JSON as it is. */
function driftedText(text: string): string {
  try {
    return JSON.stringify(driftShape(JSON.parse(text)));
  } catch {
    return text;
  }
}

/** Adds an unknown field and removes a required-looking one at the top level and in the first row. */
function driftShape(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = { ...(v as Record<string, unknown>) };
  o._drift_extra_field = 'added by the sandbox schema_drift fault';
  for (const k of ['count_returned', 'overall_score', 'briefs', 'results', 'data', 'success']) {
    if (k in o) {
      delete o[k];
      break;
    }
  }
  return o;
}

/** A CDN gateway's HTML error page, as Cloudflare serves it in front of the real service. */
function gatewayPage(status: 502 | 524, host: string): Response {
  const title = status === 524 ? 'A timeout occurred' : 'Bad gateway';
  const html = `<!DOCTYPE html>
<html lang="en-US">
<head><title>${host} | ${status}: ${title}</title><meta charset="UTF-8" /></head>
<body>
<div id="cf-wrapper"><div id="cf-error-details">
<h1><span class="cf-error-type">${title}</span> <span class="code-label">Error code ${status}</span></h1>
<p>Visit <a href="https://www.cloudflare.com/5xx-error-landing">cloudflare.com</a> for more information.</p>
<div class="cf-error-footer"><span>Cloudflare Ray ID: <strong>8f00000000000000</strong></span> &bull; <span>Performance &amp; security by Cloudflare</span></div>
</div></div>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=UTF-8', Server: 'cloudflare', 'CF-RAY': '8f00000000000000-IAD' },
  });
}
