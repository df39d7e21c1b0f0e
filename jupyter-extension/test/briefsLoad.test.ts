// Loading every brief a tier may see as the panel does (core's fetchBriefsAllPages / fetchBriefsDiff,
// rows by briefToRow), against the in-process sandbox with a real client.
import {
  briefToRow,
  DchubClient,
  fetchBriefsAll,
  fetchBriefsAllPages,
  fetchBriefsDiff,
  fetchMeta,
  mergeBriefDiff,
  type PagesProgress
} from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'pro=pro-key-1,enterprise=ent-key-1',
    controls: true
  });
});
afterAll(async () => {
  await sb?.close();
});

/** A client whose brief pages are recorded as `offset+limit`. */
function recording(baseUrl: string, apiKey?: string): { client: DchubClient; pages: string[] } {
  const pages: string[] = [];
  const client = new DchubClient({
    baseUrl,
    apiKey,
    fetch: (input, init) => {
      const u = new URL(input instanceof Request ? input.url : String(input));
      if (u.pathname.startsWith('/api/v1/market-brief/'))
        pages.push(`${u.searchParams.get('offset') ?? 0}+${u.searchParams.get('limit') ?? 50}`);
      return fetch(input, init);
    }
  });
  return { client, pages };
}

describe('every brief page, as the panel loads them', () => {
  it('loads all of a Pro tier in one page (the first at the size every tier may ask)', async () => {
    const { client, pages } = recording(sb.url, 'pro-key-1');
    const answer = await fetchBriefsAllPages(client);
    const rows = answer.briefs.map(briefToRow);
    expect(answer.tier.toLowerCase()).toBe('pro');
    expect(fetchMeta(answer)?.stale).toBe(false);
    const direct = await fetchBriefsAll(client, { limit: 500 });
    expect(rows.map((r) => r.market_slug)).toEqual(direct.briefs.map((b) => b.slug));
    expect(pages[0]).toBe('0+50');
    expect(pages).toHaveLength(2); // the read, then the direct page asked above
  });

  it('pages on at the tier maximum until total_available is reached, progress after each page', async () => {
    const { client, pages } = recording(sb.url, 'ent-key-1');
    const progress: PagesProgress[] = [];
    const answer = await fetchBriefsAllPages(client, { onProgress: (p) => progress.push(p) });
    expect(answer.briefs).toHaveLength(232);
    expect(new Set(answer.briefs.map((b) => b.slug)).size).toBe(232);
    expect(pages).toEqual(['0+50', '50+500']);
    expect(progress).toEqual([
      { pagesDone: 1, pagesTotal: 2, rowsDone: 50, rowsTotal: 232 },
      { pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 }
    ]);
  });

  it('a keyless caller gets the smaller anonymous set', async () => {
    const answer = await fetchBriefsAllPages(new DchubClient({ baseUrl: sb.url }));
    expect(answer.tier.toLowerCase()).not.toBe('pro');
    expect(answer.briefs.length).toBeGreaterThan(0);
    expect(answer.briefs.length).toBeLessThan(15);
  });

  it('a refresh after recomputes marks exactly the sandbox diff', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-1' });
    const rows = (await fetchBriefsAllPages(client)).briefs.map(briefToRow);
    const asOf = rows.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
    sb.ctx.clock.advance(7 * 86400);
    const diff = await fetchBriefsDiff(client, asOf);
    const merged = mergeBriefDiff(rows, diff);
    expect([...merged.changed, ...merged.added].sort()).toEqual(diff.briefs.map((b) => b.slug).sort());
    expect(merged.asOf > asOf).toBe(diff.briefs.length > 0);
  });

  it('aborts between pages: no page after the signal fires', async () => {
    const { client, pages } = recording(sb.url, 'ent-key-1');
    const abort = new AbortController();
    await expect(
      fetchBriefsAllPages(client, { signal: abort.signal, onProgress: () => abort.abort() })
    ).rejects.toThrow(/abort/i);
    expect(pages).toEqual(['0+50']);
  });
});

describe('a brief the service failed to build (the real profile)', () => {
  it('is left out and named, and the pages after it are read from where the service cut them', async () => {
    const real = await startSandbox({
      port: 0,
      seed: 'x',
      now: '2026-11-21T12:00:00Z',
      keys: 'pro=pro-key-1,enterprise=ent-key-1',
      profile: 'real'
    });
    try {
      for (const key of ['pro-key-1', 'ent-key-1']) {
        const raw = (await (
          await fetch(`${real.url}/api/v1/market-brief/all?limit=500`, { headers: { 'X-API-Key': key } })
        ).json()) as {
          briefs: Array<{ slug: string; ok?: boolean }>;
        };
        const failed = raw.briefs.filter((b) => b.ok === false).map((b) => b.slug);
        expect(failed).toHaveLength(1);
        const { client, pages } = recording(real.url, key);
        const answer = await fetchBriefsAllPages(client);
        const rows = answer.briefs.map(briefToRow);
        // Every brief that was built, once; the failed one named.
        expect(rows.map((r) => r.market_slug)).toEqual(raw.briefs.filter((b) => b.ok !== false).map((b) => b.slug));
        // Pro: one page; Enterprise: the second page starts at 50 (the service's cut), not at the 49 briefs read.
        expect(pages).toEqual(key === 'pro-key-1' ? ['0+50'] : ['0+50', '50+500']);
        expect(
          fetchMeta(answer)?.warnings?.some((w) => w.startsWith(`${failed[0]}: brief failed to build on the service`))
        ).toBe(true);
      }
    } finally {
      await real.close();
    }
  });
});

describe('every page of /diff', () => {
  it('232 changed markets through a first page of 50', async () => {
    const { client, pages } = recording(sb.url, 'ent-key-1');
    const diff = await fetchBriefsDiff(client, '2000-01-01T00:00:00Z');
    expect(diff.changed_total).toBeGreaterThan(50);
    expect(diff.briefs).toHaveLength(diff.changed_total);
    expect(new Set(diff.briefs.map((b) => b.slug)).size).toBe(diff.changed_total);
    expect(pages[0]).toBe('0+50');
    expect(pages.length).toBeGreaterThan(1);
    // Merged into a table of the first page only, nothing is lost.
    const first = await fetchBriefsAll(client, { limit: 50 });
    const merged = mergeBriefDiff(first.briefs.map(briefToRow), diff);
    expect(merged.rows).toHaveLength(diff.changed_total);
  });

  it('refuses a since that is not a time before any request', async () => {
    const client = new DchubClient({ baseUrl: sb.url });
    await expect(fetchBriefsDiff(client, 'yesterday')).rejects.toThrow(/since/);
    expect(client.requestsSent).toBe(0);
  });
});
