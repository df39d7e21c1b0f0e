import { z } from 'zod';
import type { ParamMeta } from '@dchub/core';
import type { RouteRegistry, RouteSpec } from './registry.js';

/** Finds the `param` metadata of a parameter schema, through optional/pipe/transform wrappers. */
function paramMeta(schema: z.ZodType | undefined, depth = 0): ParamMeta | undefined {
  if (!schema || depth > 6) return undefined;
  const meta = (schema.meta() as { param?: ParamMeta } | undefined)?.param;
  if (meta) return meta;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  for (const k of ['in', 'innerType', 'out', 'schema']) {
    const found = paramMeta(def[k] as z.ZodType | undefined, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The z.object carrying the query parameters (unwrapping a preprocess pipe). */
function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  let s: unknown = schema;
  for (let i = 0; i < 4 && s; i++) {
    const def = (s as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
    s = def.out ?? def.in ?? def.innerType;
  }
  return {};
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

function operation(spec: RouteSpec) {
  const parameters: unknown[] = [];
  for (const [name, p] of Object.entries(spec.pathParams ?? {})) {
    parameters.push({ name, in: 'path', required: true, description: p.description, schema: { type: p.type ?? 'string' } });
  }
  for (const [name, schema] of Object.entries(objectShape(spec.query))) {
    const m = paramMeta(schema);
    const s: Record<string, unknown> = { type: m?.type ?? 'string' };
    if (m?.minimum !== undefined) s.minimum = m.minimum;
    if (m?.maximum !== undefined) s.maximum = m.maximum;
    if (m?.default !== undefined) s.default = m.default;
    if (m?.enum) s.enum = m.enum;
    parameters.push({ name, in: 'query', required: false, ...(m?.description ? { description: m.description } : {}), schema: s });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const type = r.contentType ?? 'application/json';
    responses[status] = {
      description: r.description,
      ...(r.schema || type !== 'application/json'
        ? { content: { [type]: r.schema ? { schema: jsonSchema(r.schema, 'output') } : { schema: { type: 'string' } } } }
        : {}),
    };
  }
  return {
    summary: spec.summary,
    tags: spec.tags,
    operationId: `${spec.method}${spec.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(spec.body, 'input') } } } } : {}),
    security: spec.requires && spec.requires !== 'anonymous' ? [{ apiKey: [] }] : [{ apiKey: [] }, {}],
    ...(spec.requires ? { 'x-required-tier': spec.requires } : {}),
    responses,
  };
}

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, '{$1}');

/** OpenAPI 3.1.0 generated from the declared routes and their zod schemas. */
export function buildOpenApi(registry: RouteRegistry, serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of registry.routes) {
    for (const p of [spec.path, ...(spec.aliases ?? [])]) {
      const path = toOpenApiPath(p);
      paths[path] ??= {};
      const op = operation(spec);
      paths[path][spec.method] = p === spec.path ? op : { ...op, operationId: `${op.operationId}Alias${Object.keys(paths).length}` };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DC Hub — Data Center Intelligence API (sandbox)',
      version: '2.12.0-sandbox',
      description: 'Local implementation of the DC Hub interface on synthetic data. Generated from the schemas the code validates with.',
      license: { name: 'CC-BY-4.0 for DCPI scores and methodology', identifier: 'CC-BY-4.0' },
      'x-dchub-envelope': '1.0',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    paths,
  };
}
