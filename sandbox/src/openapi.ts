import { z } from 'zod';
import { ErrorBody } from '@dchub/core';
import type { Tier } from './policy/tiers.js';
import type { ResponseSpec, RouteRegistry, RouteSpec } from './registry.js';

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 of a zod schema: `input` for what a request may carry, `output` for answers. */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
};

/** A query string cannot carry JSON null: null alternatives are left out of query parameter schemas. */
function withoutNull(s: JsonSchema): JsonSchema {
  const alts = s.anyOf as JsonSchema[] | undefined;
  if (!alts) return s;
  const kept = alts.filter((a) => a.type !== 'null').map(withoutNull);
  const { anyOf: _alts, ...rest } = s;
  return kept.length === 1 ? { ...rest, ...kept[0] } : { ...rest, anyOf: kept };
}

/** OpenAPI parameters of an object schema (path or query), from its input JSON Schema. */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const obj = jsonSchema(schema, 'input');
  const required = new Set((obj.required as string[] | undefined) ?? []);
  return Object.entries((obj.properties ?? {}) as Record<string, JsonSchema>).map(([name, prop]) => {
    const { description, ...s } = withoutNull(prop);
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: s,
    };
  });
}

/** The tier a route needs under the serving profile (the real profile walls some public routes). */
export type RequiredTier = (spec: RouteSpec) => Tier | undefined;

function operation(spec: RouteSpec, requiredTier: RequiredTier) {
  const requires = requiredTier(spec);
  const parameters = [...parametersOf(spec.params, 'path'), ...parametersOf(spec.query, 'query')];
  const responses: Record<string, unknown> = {};
  // A route that needs a key or a plan may refuse: 401 (no key), 403 (plan below; the real profile's answer to a
  // missing key too).
  const refusals: Record<number, ResponseSpec> = requires
    ? {
        401: { description: 'No API key', schema: ErrorBody },
        403: {
          description: 'Plan below the one required (the real profile also answers 403 plan_required without a key)',
          schema: ErrorBody,
        },
      }
    : {};
  for (const [status, r] of Object.entries({ ...refusals, ...spec.responses })) {
    const type = r.contentType ?? 'application/json';
    const content: Record<string, unknown> = {};
    if (r.schema || type !== 'application/json')
      content[type] = { schema: r.schema ? jsonSchema(r.schema, 'output') : { type: 'string' } };
    for (const other of r.alsoContentTypes ?? []) content[other] = { schema: { type: 'string' } };
    responses[status] = { description: r.description, ...(Object.keys(content).length ? { content } : {}) };
  }
  // A body may be left out when its schema accepts {} (the sandbox reads an empty body as {}).
  const bodyOptional = spec.body ? spec.body.safeParse({}).success : false;
  return {
    summary: spec.summary,
    tags: spec.tags,
    operationId: `${spec.method}${spec.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !bodyOptional,
            content: { 'application/json': { schema: jsonSchema(spec.body, 'input') } },
          },
        }
      : {}),
    security: requires && requires !== 'anonymous' ? [{ apiKey: [] }] : [{ apiKey: [] }, {}],
    ...(requires ? { 'x-required-tier': requires } : {}),
    responses,
  };
}

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, '{$1}');

/** OpenAPI 3.1.0 generated from the declared routes and their zod schemas. */
export function buildOpenApi(
  registry: RouteRegistry,
  serverUrl: string,
  requiredTier: RequiredTier = (spec) => spec.requires,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of registry.routes) {
    for (const p of [spec.path, ...(spec.aliases ?? [])]) {
      const path = toOpenApiPath(p);
      paths[path] ??= {};
      const op = operation(spec, requiredTier);
      paths[path][spec.method] =
        p === spec.path ? op : { ...op, operationId: `${op.operationId}Alias${Object.keys(paths).length}` };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DC Hub — Data Center Intelligence API (sandbox)',
      version: '2.12.0-sandbox',
      description:
        'Local implementation of the DC Hub interface on synthetic data. Generated from the schemas the code validates with.',
      license: { name: 'CC-BY-4.0 for DCPI scores and methodology', identifier: 'CC-BY-4.0' },
      'x-dchub-envelope': '1.0',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    paths,
  };
}
