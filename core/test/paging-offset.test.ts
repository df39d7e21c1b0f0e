import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DchubClient, fetchBriefsAllPages, fetchBriefsCsv, fetchBriefsDiff, fetchMeta } from '../src/index.js';

/**
 * A brief that fails to build (the real profile: one of the five markets every tier sees) is left
 * out by the reader but took its place in the service's page: the next page starts at the service's
 * offset + limit, not at the count of briefs read, so no brief is read twice and none is skipped.
 */
let sb: RunningSandbox;
const ENT = 'offset-enterprise-key';
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'offset',
    now: '2026-11-21T12:00:00Z',
    keys: `enterprise=${ENT}`,
    profile: 'real',
  });
});
afterAll(async () => {
  await sb?.close();
});

/** A client that records the limit/offset of every brief page it asks. */
function recordingClient() {
  const asked: string[] = [];
  const client = new DchubClient({
    baseUrl: sb.url,
    apiKey: ENT,
    now: () => sb.ctx.clock.nowMs(),
    fetch: (input, init) => {
      const u = new URL(input instanceof Request ? input.url : String(input));
      if (u.pathname.startsWith('/api/v1/market-brief/'))
        asked.push(`${u.searchParams.get('offset') ?? 0}+${u.searchParams.get('limit') ?? 50}`);
      return fetch(input, init);
    },
  });
  return { client, asked };
}

async function servedSlugs(path: string): Promise<{ built: string[]; failed: string[] }> {
  const raw = (await (await fetch(`${sb.url}${path}`, { headers: { 'X-API-Key': ENT } })).json()) as {
    briefs: Array<{ slug: string; ok?: boolean }>;
  };
  return {
    built: raw.briefs.filter((b) => b.ok !== false).map((b) => b.slug),
    failed: raw.briefs.filter((b) => b.ok === false).map((b) => b.slug),
  };
}

describe('paging past a brief that failed to build', () => {
  it('/all: the second page starts at 50, every built brief once, the failed one named', async () => {
    const { built, failed } = await servedSlugs('/api/v1/market-brief/all?limit=500');
    expect(failed).toHaveLength(1);
    expect(built).toHaveLength(231);
    const { client, asked } = recordingClient();
    const all = await fetchBriefsAllPages(client);
    expect(asked).toEqual(['0+50', '50+500']);
    expect(all.briefs.map((b) => b.slug)).toEqual(built);
    expect(fetchMeta(all)?.warnings?.some((w) => w.startsWith(`${failed[0]}: brief failed to build`))).toBe(true);
  });

  it('/all.csv: no row twice, none skipped, two calls', async () => {
    const { built } = await servedSlugs('/api/v1/market-brief/all?limit=500');
    const { client, asked } = recordingClient();
    const csv = await fetchBriefsCsv(client);
    expect(asked).toEqual(['0+50', '50+500']);
    expect(csv.rows.map((r) => r.market_slug)).toEqual(built);
  });

  it('/diff: every page from where the service cut the last', async () => {
    const since = '2000-01-01T00:00:00Z';
    const { built } = await servedSlugs(`/api/v1/market-brief/diff?since=${since}&limit=500`);
    const { client, asked } = recordingClient();
    const diff = await fetchBriefsDiff(client, since);
    expect(asked).toEqual(['0+50', '50+500']);
    expect(diff.briefs.map((b) => b.slug)).toEqual(built);
  });
});
