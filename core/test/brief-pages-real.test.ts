import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DchubClient, fetchBriefsCsv, fetchMeta, type PagesProgress } from '../src/index.js';

/**
 * Every page of /all.csv against the real-service profile, where one brief a day fails to build
 * (notes §2.29): the reader leaves it out, and the next page still starts after it.
 */
let sb: RunningSandbox;
const ENT = 'pages-real-enterprise-key';
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'pages',
    now: '2026-11-21T12:00:00Z',
    keys: `enterprise=${ENT}`,
    profile: 'real',
  });
});
afterAll(() => sb?.close());

describe('every page of /all.csv with a brief that failed to build', () => {
  it('Enterprise in two pages (50, then 500): 231 rows, each market once, the failed one named; pages start after the records served', async () => {
    const direct = await (
      await fetch(`${sb.url}/api/v1/market-brief/all.csv?limit=500`, { headers: { 'X-API-Key': ENT } })
    ).text();
    const failed = direct
      .split(/\r?\n/)
      .filter((l) => /build_failed/.test(l))
      .map((l) => l.split(',')[0]);
    expect(failed).toHaveLength(1);
    const c = new DchubClient({ baseUrl: sb.url, apiKey: ENT, now: () => sb.ctx.clock.nowMs() });
    const progress: PagesProgress[] = [];
    const b = await fetchBriefsCsv(c, { onProgress: (p) => progress.push(p) });
    expect(b.rows).toHaveLength(231);
    expect(new Set(b.rows.map((r) => r.market_slug)).size).toBe(231);
    expect(b.rows.map((r) => r.market_slug)).not.toContain(failed[0]);
    expect(c.requestsSent).toBe(2);
    expect(progress.at(-1)).toEqual({ pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 });
    expect(fetchMeta(b)?.warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^${failed[0]}: brief failed to build on the service \\(build_failed:KeyError\\) \\(left out\\)$`),
      ),
    ]);
  });
});
