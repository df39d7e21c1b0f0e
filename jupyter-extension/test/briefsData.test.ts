// Loading every brief a tier may see, against the in-process sandbox with a real client.
import { briefToRow, DchubClient, fetchBriefsAll, fetchBriefsDiff, fetchMeta, mergeBriefDiff, type MarketBriefAllT } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBriefsDiffPage, loadAllBriefs, loadBriefsDiff } from '../src/briefsData';

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'x', now: '2026-11-21T12:00:00Z', keys: 'pro=pro-key-1,enterprise=ent-key-1', controls: true });
});
afterAll(async () => {
  await sb?.close();
});

describe('loadAllBriefs', () => {
  it('loads all of a Pro tier in one page at the tier maximum', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-1' });
    const pages: Array<{ limit: number; offset: number }> = [];
    const { rows, tier, stale } = await loadAllBriefs((page) => {
      pages.push(page);
      return fetchBriefsAll(client, page);
    });
    expect(tier.toLowerCase()).toBe('pro');
    expect(stale).toBe(false);
    const direct = await fetchBriefsAll(client, { limit: 500 });
    expect(rows.map((r) => r.market_slug)).toEqual(direct.briefs.map((b) => b.slug));
    expect(pages[0]).toEqual({ limit: 50, offset: 0 });
  });

  it('pages on at the tier maximum until total_available is reached', async () => {
    const all = Array.from({ length: 120 }, (_, i) => i);
    const seen: Array<{ limit: number; offset: number }> = [];
    const template = await fetchBriefsAll(new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-1' }), { limit: 1 });
    const brief = template.briefs[0];
    const { rows } = await loadAllBriefs(async ({ limit, offset }) => {
      seen.push({ limit, offset });
      const slice = all.slice(offset, offset + limit);
      return {
        ...template,
        tier: 'ENTERPRISE',
        count: slice.length,
        total_available: all.length,
        limit,
        offset,
        briefs: slice.map((i) => ({ ...brief, slug: `m-${i}` }))
      } as MarketBriefAllT;
    });
    expect(rows).toHaveLength(120);
    expect(seen).toEqual([
      { limit: 50, offset: 0 },
      { limit: 500, offset: 50 }
    ]);
  });

  it('a keyless caller gets the smaller anonymous set', async () => {
    const { rows, tier } = await loadAllBriefs((page) => fetchBriefsAll(new DchubClient({ baseUrl: sb.url }), page));
    expect(tier.toLowerCase()).not.toBe('pro');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(15);
  });

  it('a refresh after recomputes marks exactly the sandbox diff', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-1' });
    const { rows } = await loadAllBriefs((page) => fetchBriefsAll(client, page));
    const asOf = rows.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
    sb.ctx.clock.advance(7 * 86400);
    const diff = await fetchBriefsDiff(client, asOf);
    const merged = mergeBriefDiff(rows, diff);
    expect([...merged.changed, ...merged.added].sort()).toEqual(diff.briefs.map((b) => b.slug).sort());
    expect(merged.asOf > asOf).toBe(diff.briefs.length > 0);
  });
});

describe('a brief the service failed to build (the real profile)', () => {
  it('is left out and named, and the pages after it are read from where the service cut them', async () => {
    const real = await startSandbox({ port: 0, seed: 'x', now: '2026-11-21T12:00:00Z', keys: 'pro=pro-key-1', profile: 'real' });
    try {
      const raw = (await (await fetch(`${real.url}/api/v1/market-brief/all?limit=500`, { headers: { 'X-API-Key': 'pro-key-1' } })).json()) as {
        briefs: Array<{ slug: string; ok?: boolean }>;
      };
      const failed = raw.briefs.filter((b) => b.ok === false).map((b) => b.slug);
      expect(failed).toHaveLength(1);
      const client = new DchubClient({ baseUrl: real.url, apiKey: 'pro-key-1' });
      const warnings: string[] = [];
      const pages: Array<{ limit: number; offset: number }> = [];
      const { rows } = await loadAllBriefs(async (page) => {
        pages.push(page);
        const answer = await fetchBriefsAll(client, page);
        warnings.push(...(fetchMeta(answer)?.warnings ?? []));
        return answer;
      });
      // Every brief that was built, once; the failed one named.
      expect(rows.map((r) => r.market_slug)).toEqual(raw.briefs.filter((b) => b.ok !== false).map((b) => b.slug));
      expect(pages).toEqual([{ limit: 50, offset: 0 }]);
      expect(warnings.some((w) => w.startsWith(`${failed[0]}: brief failed to build on the service`))).toBe(true);
    } finally {
      await real.close();
    }
  });
});

describe('loadBriefsDiff', () => {
  it('reads every page of /diff: 232 changed markets through a first page of 50', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: 'ent-key-1' });
    const pages: Array<{ limit: number; offset: number }> = [];
    const diff = await loadBriefsDiff((page) => {
      pages.push(page);
      return fetchBriefsDiffPage(client, '2000-01-01T00:00:00Z', page);
    });
    expect(diff.changed_total).toBeGreaterThan(50);
    expect(diff.briefs).toHaveLength(diff.changed_total);
    expect(new Set(diff.briefs.map((b) => b.slug)).size).toBe(diff.changed_total);
    expect(pages[0]).toEqual({ limit: 50, offset: 0 });
    expect(pages.length).toBeGreaterThan(1);
    // Merged into a table of the first page only, nothing is lost.
    const first = await fetchBriefsAll(client, { limit: 50 });
    const merged = mergeBriefDiff(first.briefs.map(briefToRow), diff);
    expect(merged.rows).toHaveLength(diff.changed_total);
  });

  it('refuses a since that is not a time before any request', () => {
    const client = new DchubClient({ baseUrl: sb.url });
    expect(() => fetchBriefsDiffPage(client, 'yesterday', { limit: 50, offset: 0 })).toThrow(/since/);
    expect(client.requestsSent).toBe(0);
  });
});
