import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { SandboxClock } from './clock.js';
import type { SandboxContext } from './context.js';
import { Dataset } from './dataset.js';
import type { SandboxEnv } from './http.js';
import { DATA_HEADER, DATA_HEADER_VALUE } from './labels.js';
import { registerMcp } from './mcp/server.js';
import { FaultInjector } from './policy/faults.js';
import { authInstructions, routeGuard } from './policy/guard.js';
import { DailyCounters, requestKey } from './policy/limits.js';
import { TIERS, type Tier } from './policy/tiers.js';
import { presentersFor, type Profile } from './presenters/index.js';
import { RouteRegistry } from './registry.js';
import * as account from './routes/account.js';
import * as aiCapacity from './routes/ai-capacity.js';
import * as agent from './routes/agent.js';
import * as briefs from './routes/briefs.js';
import { registerControls } from './routes/controls.js';
import * as dcpi from './routes/dcpi.js';
import { registerDocs } from './routes/docs.js';
import * as energy from './routes/energy.js';
import * as facilities from './routes/facilities.js';
import * as feeds from './routes/feeds.js';
import * as health from './routes/health.js';
import * as markets from './routes/markets.js';
import * as parcel from './routes/parcel.js';
import * as queue from './routes/queue.js';
import * as ranking from './routes/ranking.js';
import * as sites from './routes/sites.js';
import * as stats from './routes/stats.js';

export interface SandboxOptions {
  seed?: string;
  /** ISO 8601 start of the sandbox clock; the real time when absent. */
  now?: string;
  /** `tier=key` pairs, comma-separated (DCHUB_SANDBOX_KEYS). */
  keys?: string;
  /** Mount /_sandbox/clock and /_sandbox/faults (DCHUB_SANDBOX_CONTROLS=1). */
  controls?: boolean;
  /** Enforce daily request limits (default true; DCHUB_SANDBOX_LIMITS=off turns them off for harnesses). */
  limits?: boolean;
  /** `spec` (default) serves the interface spec's shapes; `real` the real service's (DCHUB_SANDBOX_PROFILE). */
  profile?: Profile;
}

export type { SandboxContext } from './context.js';
export type { SandboxEnv } from './http.js';
export type { Tier } from './policy/tiers.js';
export type { Profile } from './presenters/index.js';

/** One resource module: its routes, declared once (see registry.ts). */
const MODULES = [
  health,
  queue,
  sites,
  briefs,
  stats,
  markets,
  dcpi,
  aiCapacity,
  facilities,
  feeds,
  energy,
  agent,
  account,
  parcel,
  ranking,
];

/** Parses DCHUB_SANDBOX_KEYS (`pro=abc,free=def`). */
export function parseKeys(spec: string | undefined): Map<string, Tier> {
  const keys = new Map<string, Tier>();
  for (const pair of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [tier, key] = pair.split('=').map((s) => s?.trim());
    if (!key || !TIERS.includes(tier as Tier) || tier === 'anonymous') {
      throw new Error(
        `DCHUB_SANDBOX_KEYS: expected tier=key with tier one of free, starter, developer, pro, enterprise; got "${pair.replace(/=.*/, '=…')}"`,
      );
    }
    keys.set(key, tier as Tier);
  }
  return keys;
}

export function createContext(opts: SandboxOptions = {}): SandboxContext {
  const seed = opts.seed ?? 'dchub';
  const presenters = presentersFor(opts.profile);
  return {
    seed,
    data: new Dataset(seed),
    clock: new SandboxClock(opts.now),
    keys: parseKeys(opts.keys),
    counters: new DailyCounters(),
    faults: new FaultInjector(seed),
    controls: opts.controls ?? false,
    enforceLimits: opts.limits ?? true,
    profile: presenters.profile,
    presenters,
  };
}

/** The declared routes of a context (the OpenAPI document is generated from these). */
export function buildRegistry(ctx: SandboxContext): RouteRegistry {
  const registry = new RouteRegistry();
  for (const m of MODULES) m.register(registry, ctx);
  return registry;
}

/** URLs longer than this answer 414. */
export const MAX_URL_BYTES = 16 * 1024;

/** The methods each declared path answers (routes, docs, MCP, controls), for 405 + Allow. */
function allowedMethods(registry: RouteRegistry, controls: boolean): (path: string) => string[] {
  const table: Array<{ re: RegExp; methods: Set<string> }> = [];
  const add = (path: string, ...methods: string[]) => {
    const re = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
    const row =
      table.find((r) => r.re.source === re.source) ?? (table.push({ re, methods: new Set() }), table[table.length - 1]);
    for (const m of methods) row.methods.add(m);
  };
  for (const spec of registry.routes)
    for (const p of [spec.path, ...(spec.aliases ?? [])]) add(p, spec.method.toUpperCase());
  add('/openapi.json', 'GET');
  add('/auth.md', 'GET');
  add('/mcp', 'GET', 'POST', 'DELETE');
  if (controls) {
    add('/_sandbox/clock', 'GET', 'POST');
    add('/_sandbox/faults', 'GET', 'POST', 'DELETE');
    add('/_sandbox/limits', 'DELETE');
  }
  return (path) => {
    const methods = new Set<string>();
    for (const r of table) if (r.re.test(path)) for (const m of r.methods) methods.add(m);
    if (methods.has('GET')) methods.add('HEAD');
    if (methods.size) methods.add('OPTIONS');
    return [...methods].sort();
  };
}

/** Any origin may call (browser add-ins, notebooks); the headers clients send and read are listed. */
const CORS = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  allowHeaders: [
    'Content-Type',
    'Accept',
    'Authorization',
    'X-API-Key',
    'Mcp-Session-Id',
    'Mcp-Protocol-Version',
    'Last-Event-ID',
    'If-None-Match',
  ],
  exposeHeaders: [
    'Content-Disposition',
    'Retry-After',
    'ETag',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'X-RateLimit-Tier',
    'X-Total-Available',
    'X-Market-Brief-Mode',
    'X-Market-Brief-Tier',
    'X-Canonical-Path',
    'Mcp-Session-Id',
    DATA_HEADER,
  ],
  maxAge: 600,
});

/** Every answer says its data is synthetic. */
const labelSynthetic: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  await next();
  c.header(DATA_HEADER, DATA_HEADER_VALUE);
};

/** Long URLs: a JSON 414 naming the limit (Node's parser refuses past MAX_HEADER_BYTES; server.ts answers those). */
const refuseLongUrls: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  if (c.req.url.length > MAX_URL_BYTES)
    return c.json({ error: `url: the URL is longer than ${MAX_URL_BYTES} bytes (the limit)`, param: 'url' }, 414);
  await next();
};

/** The caller's tier from its key (X-API-Key or a bearer token); an unknown key is a 401. */
function authenticate(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const key = requestKey(c);
    const tier = key ? ctx.keys.get(key) : 'anonymous';
    if (!tier) {
      return c.json(
        {
          success: false,
          error: 'invalid_api_key',
          message: 'Invalid or inactive API key',
          auth_instructions: authInstructions(c),
          get_key_url: 'https://dchub.cloud/dashboard.html#api-keys',
        },
        401,
        ctx.presenters.access.unknownKeyHeaders(),
      );
    }
    c.set('tier', tier);
    await next();
  };
}

/** No route: 405 naming the methods of a declared path asked with another, else 404; a thrown error is a 500. */
function answerUnrouted(app: Hono<SandboxEnv>, allowed: (path: string) => string[]): void {
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const methods = allowed(path);
    if (methods.length) {
      c.header('Allow', methods.join(', '));
      return c.json(
        {
          error: `method_not_allowed: ${c.req.method} ${path} is not supported; use ${methods.join(', ')}`,
          allow: methods,
        },
        405,
      );
    }
    return c.json({ error: `not_found: no endpoint ${c.req.method} ${path}` }, 404);
  });
  app.onError((err, c) => {
    // A bug, not bad input: say so without leaking internals.
    console.error('[sandbox] unhandled error:', err);
    return c.json({ error: 'internal_error', message: 'The sandbox failed to answer this request.' }, 500);
  });
}

export function createApp(ctx: SandboxContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.use('*', CORS);
  app.use('*', labelSynthetic);
  app.use('*', refuseLongUrls);
  app.use('*', ctx.faults.middleware);
  app.use('*', authenticate(ctx));

  const registry = buildRegistry(ctx);
  registry.mount(app, routeGuard(ctx));
  registerDocs(app, registry, (spec) => ctx.presenters.access.required(spec.path, spec.requires));
  registerMcp(app, ctx);
  if (ctx.controls) registerControls(app, ctx);
  answerUnrouted(app, allowedMethods(registry, ctx.controls));
  return app;
}
