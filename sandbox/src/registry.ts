import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { safeParseParams } from '@dchub/core';
import { readJsonBody } from './body.js';
import type { SandboxEnv } from './http.js';
import type { Tier } from './policy/tiers.js';

/**
 * Every endpoint is declared once, in core's ENDPOINTS (method, path, parameter, body and answer
 * schemas); a route spreads its descriptor and adds what serving it needs (summary, tags, tier,
 * handler). The Hono route and the OpenAPI document are both derived from that.
 */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** Further content types of the same status (text, schema-less: CSV on request, say). */
  alsoContentTypes?: string[];
}

export interface RouteSpec<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
> {
  method: 'get' | 'post';
  /** Hono path (`/api/v1/markets/:name`); OpenAPI gets `{name}`. */
  path: string;
  /** Further paths answering the same way (aliases). */
  aliases?: readonly string[];
  /** Schema of the 200 answer when `responses[200]` names none (the endpoint descriptor's). */
  response?: z.ZodType;
  summary: string;
  /** OpenAPI tags; a route that `requires` a tier is tagged `Keyed` unless it says otherwise. */
  tags?: string[];
  /** Lowest tier that may call it; below that the route answers 401/403. */
  requires?: Tier;
  /** Counts toward the caller's daily request allowance (default true). */
  counted?: boolean;
  /** Path parameters: a z.object keyed by the `:name`s of the path (validated, documented). */
  params?: P;
  query?: Q;
  /** Rewrites the raw query before validation (the real profile's parameter spellings). */
  prepareQuery?: (raw: Record<string, string>) => Record<string, unknown>;
  /** The request body; it is optional (may be left out) when the schema accepts `{}`. */
  body?: B;
  /** Fields added to every 400 of this route (the real service's `code: VALIDATION_ERROR`, say). */
  errorExtras?: Record<string, string>;
  /** Errors use the agent envelope (`ok:false,_entity:"error"`) rather than a bare `error`. */
  envelopeErrors?: boolean;
  /** Cost bound checked on the parsed JSON before validation (a refusal names the limit). */
  bound?: (json: unknown) => { param: string; message: string } | undefined;
  responses: Record<number, ResponseSpec>;
  handler: (
    c: Context<SandboxEnv>,
    input: { query: z.output<Q>; body: z.output<B>; params: z.output<P> },
  ) => Response | Promise<Response>;
}

export { MAX_BODY_BYTES } from './body.js';

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];

  add<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType>(spec: RouteSpec<Q, B, P>): void {
    const ok = spec.responses[200];
    const responses =
      ok && !ok.schema && !ok.contentType && spec.response
        ? { ...spec.responses, 200: { ...ok, schema: spec.response } }
        : spec.responses;
    const tags = spec.tags ?? (spec.requires ? ['Keyed'] : []);
    this.routes.push({ ...spec, tags, responses } as unknown as RouteSpec);
  }

  /** Mounts every declared route on the app, with input validation. */
  mount(app: Hono<SandboxEnv>, guard: (c: Context<SandboxEnv>, spec: RouteSpec) => Response | undefined): void {
    for (const spec of this.routes) {
      for (const path of [spec.path, ...(spec.aliases ?? [])]) {
        app.on(spec.method.toUpperCase(), path, async (c) => {
          const refused = guard(c, spec);
          if (refused) return refused;
          const fail = (param: string, message: string, status: 400 | 413 = 400) => {
            const error = `${param}: ${message}`;
            const extras = spec.errorExtras ?? {};
            return c.json(
              spec.envelopeErrors
                ? { ok: false, _entity: 'error', error, param, ...extras }
                : { success: false, error, ...extras, param },
              status,
            );
          };
          const read = (schema: z.ZodType, raw: unknown) => {
            const r = safeParseParams(schema, raw);
            return r.success ? r : { ...r, refused: fail(r.param, r.message) };
          };
          let params: unknown = undefined;
          if (spec.params) {
            const r = read(spec.params, c.req.param());
            if (!r.success) return r.refused;
            params = r.data;
          }
          let query: unknown = undefined;
          if (spec.query) {
            const raw = c.req.query();
            const r = read(spec.query, spec.prepareQuery ? spec.prepareQuery(raw) : raw);
            if (!r.success) return r.refused;
            query = r.data;
          }
          let body: unknown = undefined;
          if (spec.body) {
            const got = await readJsonBody(c.req.raw);
            if (!got.ok) return fail(got.param, got.message, got.status);
            const over = spec.bound?.(got.json);
            if (over) return fail(over.param, over.message);
            const r = read(spec.body, got.json);
            if (!r.success) return r.refused;
            body = r.data;
          }
          return spec.handler(c, { query, body, params });
        });
      }
    }
  }
}
