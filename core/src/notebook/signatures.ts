import { z } from 'zod';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../endpoints.js';
import { MCP_TOOL_NAMES } from '../schemas/mcp.js';
import { choiceParam, optionalNumber } from '../schemas/params.js';
import { RANK_SCORING_MODES } from '../schemas/ranking.js';

/**
 * The notebook methods' signatures as core's schemas state them, for the hosts that present them
 * (scripts/gen-python.mjs generates the Python API's typed calls and their docstrings from these):
 * each method's arguments (NOTEBOOK_METHODS' names, in order) with the schema of the endpoint field
 * each is sent as, widened where the method reads more than the endpoint takes (ranking text, a
 * GeoJSON file); and the engine's account answers (`quota`, `cache_info`). These schemas describe;
 * the methods check their arguments themselves, by the endpoints' schemas and the ranking readers.
 */

/** The schema of an endpoint's field (a path parameter, a query parameter or a body member). */
function field(name: EndpointName, key: string): z.ZodType {
  const e: Endpoint = ENDPOINTS[name];
  for (const part of [e.params, e.query, e.body]) {
    if (part instanceof z.ZodObject && Object.hasOwn(part.shape, key)) return part.shape[key] as z.ZodType;
  }
  throw new Error(`notebook signatures: ${name} has no field ${key}`);
}

/** Fields of one endpoint under the same names. */
const fields = (name: EndpointName, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, field(name, k)]));

/** A field the endpoint takes as optional that the method requires (its description kept). */
function required(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType).meta(schema.meta() ?? {}) : schema;
}

/** Field paths (`hero.verdict`): a list, or their comma-separated text. */
const fieldPaths = (example: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .meta({ description: `Only these field paths (a list, or comma-separated), such as ${example}` });

/** The ranking's forms beyond its body: objectives and constraints also as text. */
const rankingArgs = {
  objectives: z.union([field('rankSites', 'objectives'), z.string()]).meta({
    description: 'Object {field: signed non-zero weight} or "field:weight,..."; + maximizes, - minimizes',
  }),
  constraints: z
    .union([field('rankSites', 'constraints'), z.string()])
    .optional()
    .meta({
      description: 'Object {field: {min?, max?}} or "field:min:max,...": hard filters (a min above its max keeps none)',
    }),
  mode: choiceParam(RANK_SCORING_MODES, { description: 'How objectives are scaled (default relative)' }),
  top_k: field('rankSites', 'top_k'),
};

/** Each notebook method's arguments, in the order NOTEBOOK_METHODS names them. */
export const NOTEBOOK_SIGNATURES: Readonly<Record<string, z.ZodObject>> = {
  queue: ENDPOINTS.queue.query,
  site_score: z.object(fields('siteScore', ['lat', 'lon', 'capacity_mw', 'state'])),
  rank: z.object({
    candidates: field('rankSites', 'candidates').meta({
      description: 'Candidate sites: records of id, lat, lng (or lon) and the metrics the objectives name',
    }),
    ...rankingArgs,
  }),
  chain: z.object({
    objectives: rankingArgs.objectives,
    ...fields('queue', ['iso', 'min_mw', 'max_ttp_months']),
    constraints: rankingArgs.constraints,
    mode: rankingArgs.mode,
    top_k: rankingArgs.top_k,
    max_sites: optionalNumber({ int: true, min: 1, description: 'Most queue survivors scored (default 20)' }),
    budget: optionalNumber({ int: true, min: 0, description: 'Most calls spent (default what is left today)' }),
  }),
  parcel: z.object({
    geometry: z.union([
      field('analyzeParcel', 'geometry'),
      z.string().meta({ description: 'GeoJSON text, or the path of a GeoJSON file', format: 'path' }),
    ]),
    capacity_mw: field('analyzeParcel', 'capacity_mw'),
  }),
  briefs: z.object(fields('briefsAll', ['limit', 'offset'])),
  briefs_diff: z.object({ since: required(field('briefsDiff', 'since')) }),
  brief: z.object({ slug: field('brief', 'slug'), fields: fieldPaths('"hero.verdict"') }),
  dcpi: z.object({
    market: field('dcpiMarket', 'market_slug').optional(),
    fields: fieldPaths('"verdict"'),
    ...fields('dcpiLeaderboard', ['verdict', 'limit']),
  }),
  dcpi_scores: z.object(fields('dcpiScores', ['verdict', 'iso', 'state', 'sort', 'limit'])),
  markets: z.object({}),
  market: z.object({ name: field('market', 'market_name') }),
  facilities: z.object({
    query: field('facilities', 'q'),
    ...fields('facilities', ['country', 'limit', 'market', 'state', 'status']),
  }),
  news: z.object(fields('news', ['limit', 'query', 'category', 'source'])),
  deals: z.object(fields('transactions', ['limit', 'deal_type', 'year', 'buyer', 'seller'])),
  pipeline: z.object(fields('pipeline', ['status', 'market', 'company', 'limit'])),
  fuel_mix: z.object(fields('fuelMix', ['iso'])),
  prices: z.object(fields('energyPrices', ['state'])),
  grid_regions: z.object({}),
  receipts: z.object({}),
  tool: z.object({
    name: z.enum(MCP_TOOL_NAMES).meta({ description: 'One of the 29 MCP tools' }),
    args: z.record(z.string(), z.unknown()).meta({ description: "The tool's arguments, by name" }),
  }),
};

const count = (description: string) => z.number().int().meta({ description });
const time = (description: string) => z.iso.datetime().meta({ description });

/** What a team gateway stated: the team's allowance and the caller's share of it. */
const GatewayAllowanceAnswer = z
  .object({
    team_limit: count("The team's calls a day"),
    team_remaining: count("The team's calls left today"),
    share_limit: count("Calls a day the caller's token may cause (null: no share of its own)").nullable(),
    share_remaining: count("The caller's share left today").nullable(),
    resets_at: time("When the gateway's day ends"),
  })
  .meta({ description: 'What the team gateway stated' });

/** The engine's `quota` answer: the caller's daily ledger (no call spent). */
export const QuotaAnswer = z.object({
  tier: z.string().meta({ description: "The key's tier (stated by the service, else assumed)" }),
  limit: count("Calls a day (behind a team gateway the token's share, else the team's)"),
  used: count('Calls spent today'),
  remaining: count('Calls left today'),
  resets_at: time('When the day ends (UTC midnight, or the reset time the service stated)'),
  confirmed: z.boolean().meta({ description: 'Whether the service stated the allowance (else it is assumed)' }),
  via_gateway: z.boolean().meta({ description: 'Whether the calls go through a team gateway' }),
  gateway: GatewayAllowanceAnswer.nullable(),
  line: z.string().meta({ description: 'The allowance in words, as every host shows it' }),
});
export type QuotaAnswerT = z.input<typeof QuotaAnswer>;

/** The engine's `cache_info` answer. */
export const CacheInfoAnswer = z.object({
  directory: z.string().meta({ description: 'The directory of cached answers and of the daily ledger' }),
  answers: count('Answers it holds'),
});
export type CacheInfoAnswerT = z.input<typeof CacheInfoAnswer>;
