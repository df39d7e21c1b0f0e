import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { VERSION } from '@dchub/core';
import { credentialOf } from './auth.js';
import { verifyCaller } from './failover.js';
import type { GatewayEnv } from './context.js';
import type { Gateway } from './gateway.js';
import { GATEWAY_HEADER } from './headers.js';
import { answerError, observe, registerOps } from './ops.js';
import { registerMcp } from './routes/mcp.js';
import { registerRest } from './routes/rest.js';

/** Headers a browser host (the Excel add-in, JupyterLab in direct mode) sends and reads. */
const ALLOW_HEADERS = [
  'X-API-Key',
  'Authorization',
  'Content-Type',
  'Accept',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
];
const EXPOSE_HEADERS = [
  'X-DCHub-Answer',
  'X-DCHub-Cache',
  'X-DCHub-Gateway',
  'X-DCHub-Notice',
  'X-DCHub-Share-Limit',
  'X-DCHub-Share-Remaining',
  'X-DCHub-Team-Limit',
  'X-DCHub-Team-Remaining',
  'X-DCHub-Resets-At',
  'X-Total-Available',
  'X-Market-Brief-Mode',
  'X-Market-Brief-Tier',
  'Content-Disposition',
  'Retry-After',
  'Mcp-Session-Id',
];

const refusal = (error: string, message: string) => ({ success: false, error, message });

/** The caller of every API route: its gateway token, looked up (401 when missing or unknown). */
function authenticate(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const credential = credentialOf(c.req.raw.headers);
    if (!credential)
      return c.json(
        refusal(
          'missing_api_key',
          'this is a team gateway: send your gateway token as the API key (X-API-Key or Authorization: Bearer); your admin issues them with `dchub-gateway token add`',
        ),
        401,
      );
    const auth = await verifyCaller(c.var.gateway, credential);
    if ('unavailable' in auth)
      return c.json(refusal('gateway_degraded', auth.unavailable), 503, { 'Retry-After': '5' });
    if ('refused' in auth) return c.json(refusal('invalid_api_key', auth.refused), 401);
    c.set('auth', auth);
    await next();
  };
}

/** The gateway's HTTP face: the DC Hub interface (REST and MCP) for its callers, and its own health. */
export function createApp(gateway: Gateway): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { config } = gateway;
  app.use('*', async (c, next) => {
    c.set('gateway', gateway);
    await next();
    // On the answer as made (c.header() after it would copy the whole answer into a new one).
    c.res.headers.set(GATEWAY_HEADER, VERSION);
    c.res.headers.append('Vary', 'Origin');
  });
  app.use('*', observe(gateway));
  const allowBrowsers: MiddlewareHandler<GatewayEnv> = cors({
    origin: (origin) =>
      config.DCHUB_GATEWAY_CORS_ORIGINS.includes('*') || config.DCHUB_GATEWAY_CORS_ORIGINS.includes(origin)
        ? origin
        : null,
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
  // CORS is for browsers (they send Origin); a CLI, a kernel or the relay skip it, and their answers stay Hono's own
  // lightweight responses (cors touches the response before the handler, which makes Hono copy the answer's body).
  const forBrowsers: MiddlewareHandler<GatewayEnv> = (c, next) =>
    c.req.header('origin') ? allowBrowsers(c, next) : next();
  app.use('*', forBrowsers);
  const limitBody: MiddlewareHandler<GatewayEnv> = bodyLimit({
    maxSize: config.DCHUB_GATEWAY_BODY_LIMIT,
    onError: (c) =>
      c.json(
        { error: `body: the request body is larger than ${config.DCHUB_GATEWAY_BODY_LIMIT} bytes (the limit)` },
        413,
      ),
  });
  // Only requests that may carry a body: looking for one makes the server build a whole Request.
  const forBodies: MiddlewareHandler<GatewayEnv> = (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next);
  app.use('*', forBodies);
  registerOps(app, gateway);
  app.use('/api/*', authenticate());
  app.use('/openapi.json', authenticate());
  app.use('/mcp', authenticate());
  registerRest(app);
  registerMcp(app);
  app.onError(answerError(gateway));
  app.notFound((c) =>
    c.json({ error: 'not_found', message: `${c.req.path} is not a path of the DC Hub interface` }, 404),
  );
  return app;
}
