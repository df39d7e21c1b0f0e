import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT } from '../src/cli/main.js';
import { cliRunner } from './support/cli.js';
import {
  DchubClient,
  MCP_TOOL_NAMES,
  McpToolClient,
  ValidationError,
  coerceToolArguments,
  knownToolInputSchema,
  undeclaredToolArguments,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

const schema = (tool: string) => knownToolInputSchema(tool)!;
const fails = (fn: () => unknown, param: string, message: RegExp) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).param).toBe(param);
    expect((err as ValidationError).message).toMatch(message);
    return;
  }
  throw new Error('expected a ValidationError');
};

describe('tool arguments typed by the input schema', () => {
  it('union of literals (ai_capacity_index.horizon): text → the number the union holds, others refused with the choices', () => {
    expect(coerceToolArguments(schema('ai_capacity_index'), { horizon: '60', limit: '5' })).toEqual({
      horizon: 60,
      limit: 5,
    });
    expect(coerceToolArguments(schema('ai_capacity_index'), { horizon: 30 })).toEqual({ horizon: 30 });
    fails(
      () => coerceToolArguments(schema('ai_capacity_index'), { horizon: '45' }),
      'horizon',
      /must be 30, 60 or 90, got "45"/,
    );
    fails(
      () => coerceToolArguments(schema('ai_capacity_index'), { limit: '501' }),
      'limit',
      /must be at most 500, got 501/,
    );
    fails(
      () => coerceToolArguments(schema('ai_capacity_index'), { limit: '5.5' }),
      'limit',
      /must be a whole number, got "5.5"/,
    );
  });
  it('arrays of objects (compare_sites.sites) from JSON text, items typed, sizes checked', () => {
    const sites = '[{"lat":"39.0","lon":-77.5},{"lat":32.8,"lon":"-96.8","name":"DFW"}]';
    expect(coerceToolArguments(schema('compare_sites'), { sites, capacity_mw: '100' })).toEqual({
      sites: [
        { lat: 39, lon: -77.5 },
        { lat: 32.8, lon: -96.8, name: 'DFW' },
      ],
      capacity_mw: 100,
    });
    fails(
      () => coerceToolArguments(schema('compare_sites'), { sites: '[{"lat":39,"lon":-77}]' }),
      'sites',
      /needs at least 2 items, got 1/,
    );
    fails(
      () => coerceToolArguments(schema('compare_sites'), { sites: '[{"lat":"north"},{"lat":1}]' }),
      'sites.0.lat',
      /must be a number, got "north"/,
    );
    fails(
      () => coerceToolArguments(schema('compare_sites'), { sites: '[{"lon":1},{"lat":1}]' }),
      'sites.0.lat',
      /is required/,
    );
    fails(
      () => coerceToolArguments(schema('compare_sites'), { capacity_mw: '0' }),
      'capacity_mw',
      /must be greater than 0/,
    );
  });
  it('string | integer ids: whole numbers as numbers, other text kept; enums in any case; booleans from TRUE/false', () => {
    expect(coerceToolArguments(schema('get_facility'), { facility_id: '123', include_nearby: 'FALSE' })).toEqual({
      facility_id: 123,
      include_nearby: false,
    });
    expect(coerceToolArguments(schema('get_facility'), { facility_id: 'eqx-dc2', include_power: true })).toEqual({
      facility_id: 'eqx-dc2',
      include_power: true,
    });
    // Past the integer range: text, as the union allows.
    expect(coerceToolArguments(schema('get_facility'), { id: '99999999999999999999' })).toEqual({
      id: '99999999999999999999',
    });
    expect(coerceToolArguments(schema('rank_markets'), { criteria: 'AI_READY', region: ' us ' })).toEqual({
      criteria: 'ai_ready',
      region: 'us',
    });
    fails(
      () => coerceToolArguments(schema('rank_markets'), { criteria: 'best' }),
      'criteria',
      /must be one of cheapest_power, .*ai_ready, got "best"/,
    );
    fails(
      () => coerceToolArguments(schema('get_facility'), { include_nearby: 'maybe' }),
      'include_nearby',
      /must be true or false, got "maybe"/,
    );
  });
  it('text where text is asked (numbers from cells become text), blanks left out, required named', () => {
    expect(coerceToolArguments(schema('get_market_dcpi_rank'), { market_slug: 2024 })).toEqual({ market_slug: '2024' });
    expect(coerceToolArguments(schema('get_news'), { query: '', limit: null, min_relevance: '0.5' })).toEqual({
      min_relevance: 0.5,
    });
    fails(() => coerceToolArguments(schema('semantic_search'), { topK: 3 }), 'query', /is required/);
    fails(
      () => coerceToolArguments(schema('get_news'), { min_relevance: '2' }),
      'min_relevance',
      /must be at most 1, got 2/,
    );
    fails(() => coerceToolArguments(schema('get_news'), { query: 'x'.repeat(201) }), 'query', /at most 200 characters/);
  });
  it('undeclared arguments go as given (the server decides); a closed schema refuses them; no schema types by look', () => {
    expect(coerceToolArguments(schema('get_news'), { query: 'ai', extra: '5' })).toEqual({ query: 'ai', extra: '5' });
    expect(undeclaredToolArguments(schema('get_news'), { query: 'ai', extra: '5' })).toEqual(['extra']);
    fails(
      () =>
        coerceToolArguments(
          { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
          { b: 1 },
        ),
      'b',
      /is not an argument here; one of a/,
    );
    expect(coerceToolArguments(undefined, { n: '12', on: 'true', s: 'PJM,ERCOT' })).toEqual({
      n: 12,
      on: true,
      s: 'PJM,ERCOT',
    });
    const proto = coerceToolArguments(undefined, JSON.parse('{"__proto__":"1"}'));
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });
  it('lists of text: JSON or comma-separated', () => {
    const s = {
      type: 'object',
      properties: {
        fields: { type: 'array', items: { type: 'string' } },
        ids: { type: 'array', items: { type: 'integer' } },
      },
    };
    expect(coerceToolArguments(s, { fields: 'a, b', ids: '[1,"2"]' })).toEqual({ fields: ['a', 'b'], ids: [1, 2] });
    // A union that also takes text keeps it (the real rank_markets `fields: string[] | string`).
    const u = {
      type: 'object',
      properties: { fields: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] } },
    };
    expect(coerceToolArguments(u, { fields: 'a,b' })).toEqual({ fields: 'a,b' });
    expect(coerceToolArguments(u, { fields: '["a","b"]' })).toEqual({ fields: ['a', 'b'] });
  });
});

describe.each(SANDBOX_PROFILES)('tool arguments (%s profile)', (profile) => {
  describe('against the sandbox’s MCP server', () => {
    let sb: RunningSandbox;
    let dir: string;
    const PRO = 'tool-args-pro';
    beforeAll(async () => {
      sb = await startSandbox({ port: 0, profile, seed: 'tool-args', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
      dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-tool-args-'));
    });
    afterAll(async () => {
      await sb?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('core’s copy of every input schema is the one the server lists', async () => {
      const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url }));
      try {
        const tools = await mcp.listTools();
        for (const name of MCP_TOOL_NAMES) {
          const served = tools.find((t) => t.name === name)!.inputSchema as Record<string, unknown>;
          const { $schema: _a, ...fromServer } = served;
          const { $schema: _b, ...fromCore } = knownToolInputSchema(name) as Record<string, unknown>;
          expect(fromCore, name).toEqual(fromServer);
        }
      } finally {
        await mcp.close();
      }
    });

    it('typedArguments reads the server’s schema; in preview core’s copy, without connecting', async () => {
      const mcp = new McpToolClient(new DchubClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro' }), { apiKey: PRO });
      try {
        expect(await mcp.typedArguments('ai_capacity_index', { horizon: '60' }, { cacheOnly: true })).toEqual({
          horizon: 60,
        });
        expect(mcp.callsSent).toBe(0);
        const args = await mcp.typedArguments('compare_sites', {
          sites: '[{"lat":39.04,"lon":-77.49},{"lat":32.9,"lon":-96.9}]',
        });
        const r = await mcp.callTool('compare_sites', args);
        expect(r.isError).toBe(false);
        expect(JSON.stringify(r.data)).toMatch(/39\.04/);
        await expect(mcp.typedArguments('no_such_tool', {})).rejects.toMatchObject({ param: 'name' });
      } finally {
        await mcp.close();
      }
    });

    const dchub = cliRunner(
      () => sb.url,
      () => dir,
    );
    it('dchub tool: a union, an array of objects and a string that looks like a number, as the schema says', async () => {
      const a = await dchub('tool', 'ai_capacity_index', 'horizon=60', 'limit=3', '--format', 'json', '--api-key', PRO);
      expect(a.code).toBe(EXIT.ok);
      expect(JSON.parse(a.out).horizon_days ?? JSON.parse(a.out).horizon).toBe(60);
      const c = await dchub(
        'tool',
        'compare_sites',
        'sites=[{"lat":39.04,"lon":-77.49},{"lat":32.9,"lon":-96.9}]',
        '--format',
        'json',
        '--api-key',
        PRO,
      );
      expect(c.code).toBe(EXIT.ok);
      const i = await dchub('tool', 'compare_isos', 'isos=PJM,ERCOT', '--format', 'json', '--api-key', PRO);
      expect(i.code).toBe(EXIT.ok);
      expect(Object.keys(JSON.parse(i.out).comparison)).toEqual(['PJM', 'ERCOT']);
      const bad = await dchub('tool', 'ai_capacity_index', 'horizon=45', '--api-key', PRO);
      expect(bad.code).toBe(EXIT.usage);
      expect(bad.err).toMatch(/horizon: must be 30, 60 or 90, got "45"/);
      const extra = await dchub('tool', 'get_news', 'limit=2', 'colour=red', '--format', 'json', '--api-key', PRO);
      expect(extra.code).toBe(EXIT.ok);
      expect(extra.err).toMatch(/get_news does not declare colour; sent as given/);
    });
  });
});
