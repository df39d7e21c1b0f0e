import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { SandboxClock } from './clock.js';
import { TIERS, type SandboxContext, type Tier } from './context.js';
import { Dataset } from './dataset.js';
import { AUTH_INSTRUCTIONS_PATH, DATA_HEADER, DATA_HEADER_VALUE } from './labels.js';
import { registerBriefs } from './routes/briefs.js';
import { registerHealth } from './routes/health.js';
import { registerQueue } from './routes/queue.js';
import { registerSites } from './routes/sites.js';

export interface SandboxOptions {
  seed?: string;
  /** ISO 8601 start of the sandbox clock; the real time when absent. */
  now?: string;
  /** `tier=key` pairs, comma-separated (DCHUB_SANDBOX_KEYS). */
  keys?: string;
}

export type SandboxEnv = { Variables: { tier: Tier } };

/** Parses DCHUB_SANDBOX_KEYS (`pro=abc,free=def`). */
export function parseKeys(spec: string | undefined): Map<string, Tier> {
  const keys = new Map<string, Tier>();
  for (const pair of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [tier, key] = pair.split('=').map((s) => s?.trim());
    if (!key || !TIERS.includes(tier as Tier) || tier === 'anonymous') {
      throw new Error(`DCHUB_SANDBOX_KEYS: expected tier=key with tier one of free, starter, developer, pro, enterprise; got "${pair.replace(/=.*/, '=…')}"`);
    }
    keys.set(key, tier as Tier);
  }
  return keys;
}

export function createContext(opts: SandboxOptions = {}): SandboxContext {
  const seed = opts.seed ?? 'dchub';
  return { seed, data: new Dataset(seed), clock: new SandboxClock(opts.now), keys: parseKeys(opts.keys) };
}

export function createApp(ctx: SandboxContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Accept', 'Authorization', 'X-API-Key', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
      exposeHeaders: ['Content-Disposition', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Total-Available', 'Mcp-Session-Id', DATA_HEADER],
      maxAge: 600,
    }),
  );
  app.use('*', async (c, next) => {
    c.header(DATA_HEADER, DATA_HEADER_VALUE);
    const key = c.req.header('x-api-key')?.trim();
    if (!key) {
      c.set('tier', 'anonymous');
    } else {
      const tier = ctx.keys.get(key);
      if (!tier) {
        const base = new URL(c.req.url).origin;
        return c.json(
          { error: 'invalid_api_key', message: 'Invalid or inactive API key', auth_instructions: `${base}${AUTH_INSTRUCTIONS_PATH}` },
          401,
        );
      }
      c.set('tier', tier);
    }
    await next();
  });

  registerHealth(app, ctx);
  registerQueue(app as unknown as Hono, ctx);
  registerSites(app as unknown as Hono, ctx);
  registerBriefs(app, ctx);

  app.notFound((c) => c.json({ error: `not_found: no endpoint ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((err, c) => {
    // A bug, not bad input: say so without leaking internals.
    console.error('[sandbox] unhandled error:', err);
    return c.json({ error: 'internal_error', message: 'The sandbox failed to answer this request.' }, 500);
  });
  return app;
}
