import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  DchubClient,
  briefToRow,
  fetchBriefsAll,
  fetchBriefsAllPages,
  fetchBriefsCsv,
  fetchBriefsDiff,
  mergeBriefDiff,
} from '../src/index.js';
import { SANDBOX_PROFILES, failedBriefSlugs as failedSlugs } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('briefs against the sandbox (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const ENT = 'briefs-enterprise';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'briefs',
      now: '2026-11-21T12:00:00Z',
      keys: `enterprise=${ENT}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());
  const failing = profile === 'real' ? 1 : 0;

  describe('brief refresh through /diff', () => {
    it('JSON briefs and the CSV give the same rows', async () => {
      const client = new DchubClient({
        baseUrl: sb.url,
        apiKey: ENT,
        tier: 'enterprise',
        now: () => sb.ctx.clock.nowMs(),
      });
      const csv = await fetchBriefsCsv(client);
      const all = await fetchBriefsAllPages(client);
      expect(csv.rows).toHaveLength(232 - failing);
      expect(failedSlugs(all)).toEqual(failedSlugs(csv));
      expect(all.briefs.map(briefToRow)).toEqual(csv.rows);
    });

    it('merges the markets recomputed since the table’s as-of, by market_slug, and only those', async () => {
      const client = new DchubClient({
        baseUrl: sb.url,
        apiKey: ENT,
        tier: 'enterprise',
        now: () => sb.ctx.clock.nowMs(),
      });
      const first = await fetchBriefsAll(client, { limit: 500 });
      const before = first.briefs.map(briefToRow);
      expect(before.length).toBe(232 - failing);
      expect(failedSlugs(first)).toHaveLength(failing);
      const asOf = before.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
      await fetch(`${sb.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance_seconds: 86400 }),
      });
      const diff = await fetchBriefsDiff(client, asOf);
      const merged = mergeBriefDiff(before, diff);
      const second = await fetchBriefsAll(client, { limit: 500 }, { refresh: true });
      const after = second.briefs.map(briefToRow);
      // A brief that failed to build on either day is compared on neither (the table keeps its last good row).
      const failedAfter = failedSlugs(second);
      const skip = new Set([...failedSlugs(first), ...failedAfter, ...failedSlugs(diff)]);
      expect(failedAfter).toHaveLength(failing);
      const shared = (rows: typeof after) => rows.filter((r) => !skip.has(r.market_slug));
      // live_as_of (the feeds' freshness) moves every day for every market; the scores only where recomputed.
      const scores = (rows: typeof after) => shared(rows).map(({ live_as_of: _l, ...rest }) => rest);
      expect(scores(merged.rows)).toEqual(scores(after));
      const computedBefore = new Map(before.map((r) => [r.market_slug, r.computed_at]));
      const moved = shared(after)
        .filter((r) => r.computed_at !== computedBefore.get(r.market_slug))
        .map((r) => r.market_slug);
      expect(moved.length).toBeGreaterThan(0);
      expect(new Set([...merged.changed, ...merged.added].filter((s) => !skip.has(s)))).toEqual(new Set(moved));
      // changed_total counts as served: a recomputed brief that failed to build today is counted, not delivered.
      expect(diff.changed_total - moved.length).toBeGreaterThanOrEqual(0);
      expect(diff.changed_total - moved.length).toBeLessThanOrEqual(skip.size);
      expect(merged.asOf > asOf).toBe(true);
    });
  });
});
