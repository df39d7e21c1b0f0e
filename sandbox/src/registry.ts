import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { describeIssue } from '@dchub/core';
import { readJsonBody } from './body.js';
import type { SandboxEnv } from './http.js';
import type { Tier } from './policy/tiers.js';

/**
 * Every endpoint is declared once, with the same zod schemas that validate its input and
 * describe its output; the Hono route and the OpenAPI document are both derived from that.
 */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface RouteSpec<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: 'get' | 'post';
  /** Hono path (`/api/v1/markets/:name`); OpenAPI gets `{name}`. */
  path: string;
  /** Further paths answering the same way (aliases). */
  aliases?: string[];
  summary: string;
  tags: string[];
  /** Lowest tier that may call it; below that the route answers 401/403. */
  requires?: Tier;
  /** Counts toward the caller's daily request allowance (default true). */
  counted?: boolean;
  /** Path parameters, documented. */
  pathParams?: Record<string, { description: string; type?: 'string' | 'integer' }>;
  query?: Q;
  body?: B;
  /** Errors use the agent envelope (`ok:false,_entity:"error"`) rather than a bare `error`. */
  envelopeErrors?: boolean;
  /** Cost bound checked on the parsed JSON before validation (a refusal names the limit). */
  bound?: (json: unknown) => { param: string; message: string } | undefined;
  responses: Record<number, ResponseSpec>;
  handler: (c: Context<SandboxEnv>, input: { query: z.output<Q>; body: z.output<B> }) => Response | Promise<Response>;
}

export { MAX_BODY_BYTES } from './body.js';

/**
 * Validation that never throws: a validator that fails on a hostile value (an object whose own
 * `toString` is not a function, for one) is a 400 naming the input, not a 500.
 */
export function safeParse<T extends z.ZodType>(schema: T, input: unknown): z.ZodSafeParseResult<z.output<T>> {
  try {
    return schema.safeParse(input);
  } catch (e) {
    const error = new z.ZodError([{ code: 'custom', path: [], message: `could not be read (${e instanceof Error ? e.message : 'invalid value'})`, input }]);
    return { success: false, error } as z.ZodSafeParseResult<z.output<T>>;
  }
}

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];

  add<Q extends z.ZodType, B extends z.ZodType>(spec: RouteSpec<Q, B>): void {
    this.routes.push(spec as unknown as RouteSpec);
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
            return c.json(spec.envelopeErrors ? { ok: false, _entity: 'error', error, param } : { success: false, error, param }, status);
          };
          let query: unknown = undefined;
          if (spec.query) {
            const r = safeParse(spec.query, c.req.query());
            if (!r.success) {
              const { param, message } = describeIssue(r.error);
              return fail(param, message);
            }
            query = r.data;
          }
          let body: unknown = undefined;
          if (spec.body) {
            const read = await readJsonBody(c.req.raw);
            if (!read.ok) return fail(read.param, read.message, read.status);
            const json = read.json;
            const over = spec.bound?.(json);
            if (over) return fail(over.param, over.message);
            const r = safeParse(spec.body, json);
            if (!r.success) {
              const { param, message } = describeIssue(r.error);
              return fail(param, message);
            }
            body = r.data;
          }
          return spec.handler(c, { query, body } as never);
        });
      }
    }
  }
}
