import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as core from '../src/index.js';
import { NOTEBOOK_METHODS, notebookInputSchema } from '../src/notebook/methods.js';
import { endpointAt } from '../src/endpoints.js';
import { feedsSandbox } from './support/feeds-sandbox.js';

const { call, ENDPOINTS, tableOf } = core;

describe('the generic call (spec profile)', () => {
  const { client } = feedsSandbox('spec');

  it('a list answer: its rows under its columns, its facts, how it was obtained; the table is the hosts’', async () => {
    const c = client();
    const a = await call(c, ENDPOINTS.news, { limit: 3 });
    expect(a.path).toBe('/api/news');
    expect(a.meta.fromCache).toBe(false);
    expect(a.shaped).toMatchObject({ shape: 'table', columns: [...core.NEWS_COLUMNS], open: false });
    expect(a.shaped.shape === 'table' && a.shaped.rows).toHaveLength(3);
    expect(tableOf(a.shaped)).toEqual(core.newsTable(a.data));
    const again = await call(c, ENDPOINTS.news, { limit: '3' });
    expect(again.meta.fromCache).toBe(true);
    expect(c.requestsSent).toBe(1);
  });

  it('a single answer: one record, the path with its parameter filled in', async () => {
    const c = client();
    const a = await call(c, ENDPOINTS.energyPrices, { state: ' TX ' });
    expect(a.path).toBe('/api/energy/prices/TX');
    expect(a.shaped.shape).toBe('record');
    expect(a.shaped.note).toMatch(/cents per kWh/);
    expect(tableOf(a.shaped)).toEqual(core.pricesTable(a.data));
  });

  it('a bad argument is refused by name before anything is sent', async () => {
    const c = client();
    await expect(call(c, ENDPOINTS.transactions, { limit: 'many' })).rejects.toMatchObject({ param: 'limit' });
    await expect(call(c, ENDPOINTS.receipt, { run_id: 'x' })).rejects.toMatchObject({ param: 'run_id' });
    await expect(call(c, ENDPOINTS.deals, {}, { via: '/api/v2/deals' })).rejects.toMatchObject({ param: 'path' });
    expect(c.requestsSent).toBe(0);
  });

  it('an alias of the endpoint answers through the same descriptor', async () => {
    const a = await call(client(), ENDPOINTS.deals, { limit: 2 }, { via: '/api/deals' });
    expect(a.path).toBe('/api/deals');
    expect(a.data.transactions).toHaveLength(2);
  });
});

describe('what a descriptor states once', () => {
  it('which answers may be cached: GETs unless they ask fresh, POSTs that are pure computations', () => {
    const cacheable = (method: string, path: string) => core.isCacheable(endpointAt(method, path)!);
    expect(cacheable('GET', '/api/v1/markets/list')).toBe(true);
    expect(cacheable('GET', '/api/agent/whoami')).toBe(false);
    expect(cacheable('GET', '/api/v1/market-brief/diff')).toBe(false);
    expect(cacheable('POST', '/api/v1/rank-sites')).toBe(true);
    expect(cacheable('POST', '/api/v1/analyze-parcel')).toBe(true);
    expect(cacheable('POST', '/api/v1/search/semantic')).toBe(false);
    expect(cacheable('POST', '/api/v1/keys/claim')).toBe(false);
    // A path of its own before a path parameter; aliases answer as their endpoint.
    expect(endpointAt('GET', '/api/v1/market-brief/all')).toBe(ENDPOINTS.briefsAll);
    expect(endpointAt('GET', '/api/v1/market-brief/dallas')).toBe(ENDPOINTS.brief);
    expect(endpointAt('GET', '/api/news-feed')).toBe(ENDPOINTS.newsListing);
    expect(endpointAt('GET', '/api/v1/nothing')).toBeUndefined();
  });

  it('rank-sites sends the members given, as its schema read them', async () => {
    let sent: unknown;
    const c = new core.DchubClient({
      baseUrl: 'http://127.0.0.1:9',
      retries: 0,
      fetch: async (input) => {
        // The transport (ky) sends a Request.
        sent = JSON.parse(await (input as Request).text());
        throw new TypeError('offline');
      },
    });
    const input = { candidates: [{ id: 'a', fields: { mw: 5 } }], objectives: { mw: '2' } };
    await expect(core.rankSites(c, { ...input, mode: 'percentile' })).rejects.toBeInstanceOf(core.NetworkError);
    expect(sent).toEqual({ candidates: [{ id: 'a', mw: 5 }], objectives: { mw: 2 }, percentile: true });
  });

  it('the queue’s spellings fold once: lon and capacity read as lng and capacity_mw, the given members kept', () => {
    expect(core.foldQueueSpellings({ lon: -97, capacity: 120 })).toEqual({
      lon: -97,
      lng: -97,
      capacity: 120,
      capacity_mw: 120,
    });
    const spec = { lng: 1, capacity_mw: 2 };
    expect(core.foldQueueSpellings(spec)).toBe(spec);
  });

  it('a caller’s names: the ledger’s is the client’s, the tier assumed until the service says', () => {
    const c = new core.DchubClient({ baseUrl: 'http://127.0.0.1:8787/', apiKey: ' k-1 ' });
    expect(core.callerLedgerId('http://127.0.0.1:8787/', ' k-1 ')).toBe(`127.0.0.1:8787:${c.callerId}`);
    expect(core.callerLedgerId(undefined, undefined)).toBe('dchub.cloud:anon');
    expect([core.defaultTier('k'), core.defaultTier(' '), core.defaultTier(undefined)]).toEqual([
      'free',
      'anonymous',
      'anonymous',
    ]);
  });

  it('no path literal in core outside the descriptors and the schemas', () => {
    const src = join(import.meta.dirname, '../src');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const offenders = files(src)
      .filter((f) => f.endsWith('.ts') && !/^(resources|schemas)\//.test(relative(src, f)))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((line) => /['"`]\/api\//.test(line) && !/^\s*(\*|\/\/|\/\*\*)/.test(line))
          .map((line) => `${relative(src, f)}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe('the notebook methods name their endpoints', () => {
  /** Arguments of a method that its endpoint's schema does not hold (a method's own). */
  const OWN: Record<string, string[]> = { brief: ['fields'], dcpi: ['market', 'fields'] };

  it.each(Object.entries(NOTEBOOK_METHODS).filter(([, m]) => m.endpoint))(
    '%s: its arguments type by the schema',
    (name, m) => {
      const schema = notebookInputSchema(name);
      if (!m.args.length) return; // nothing to type: the endpoint takes no input
      expect(schema).toBeInstanceOf(z.ZodObject);
      const shape = (schema as z.ZodObject).shape;
      const outside = m.args.filter((a) => !((m.members?.[a] ?? a) in shape));
      expect(outside).toEqual(OWN[name] ?? []);
    },
  );

  it('the methods without one run a workflow or a tool', () => {
    expect(Object.keys(NOTEBOOK_METHODS).filter((k) => !NOTEBOOK_METHODS[k].endpoint)).toEqual(['chain', 'tool']);
  });
});
