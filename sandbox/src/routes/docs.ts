import type { Hono } from 'hono';
import type { SandboxEnv } from '../http.js';
import { buildOpenApi, type RequiredTier } from '../openapi.js';
import type { RouteRegistry } from '../registry.js';

const AUTH_MD = `# DC Hub authentication

Send your API key in the \`X-API-Key\` header on every request. There is no token exchange: the
key works directly. \`Authorization: Bearer <key>\` is accepted too.

## Get a key

- Free key, instantly, no card: \`POST /api/v1/keys/claim\` with an optional JSON body
  \`{"client_name": "<your app>"}\`. The answer's \`api_key\` is your key.
- Paid plans (Starter, Developer, Pro / Founding, Enterprise): https://dchub.cloud/pricing

## Without a key

Public read endpoints answer keyless callers with a small daily allowance (10 requests a day),
and some answers are gated previews (\`_gated: true\`, \`_hidden_count\`, \`_upgrade_cta\`).

## Errors

- 401 \`invalid_api_key\` or \`api_key_required\`, with \`auth_instructions\` pointing here.
- 403 \`plan_required\` when the key's plan is below the endpoint's.
- 429 with \`Retry-After\` when a daily limit is spent.

_This is the DC Hub sandbox: keys and data are synthetic._
`;

export function registerDocs(app: Hono<SandboxEnv>, registry: RouteRegistry, requiredTier?: RequiredTier): void {
  let doc: unknown;
  app.get('/openapi.json', (c) => {
    doc ??= buildOpenApi(registry, new URL(c.req.url).origin, requiredTier);
    return c.json(doc);
  });
  app.get('/auth.md', (c) => {
    c.header('Content-Type', 'text/markdown; charset=utf-8');
    return c.body(AUTH_MD);
  });
}
