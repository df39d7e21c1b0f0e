import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DchubClient, briefToRow, fetchBriefsAll, fetchBriefsAllPages, fetchBriefsCsv, fetchBriefsDiff, mergeBriefDiff } from '../src/index.js';

let sb: RunningSandbox;
const ENT = 'briefs-enterprise';
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'briefs', now: '2026-11-21T12:00:00Z', keys: `enterprise=${ENT}`, controls: true });
});
afterAll(() => sb?.close());

describe('brief refresh through /diff', () => {
  it('JSON briefs and the CSV give the same rows', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: ENT, tier: 'enterprise', now: () => sb.ctx.clock.nowMs() });
    const csv = await fetchBriefsCsv(client);
    const all = await fetchBriefsAllPages(client);
    expect(csv.rows).toHaveLength(232);
    expect(all.briefs.map(briefToRow)).toEqual(csv.rows);
  });

  it('merges the markets recomputed since the table’s as-of, by market_slug, and only those', async () => {
    const client = new DchubClient({ baseUrl: sb.url, apiKey: ENT, tier: 'enterprise', now: () => sb.ctx.clock.nowMs() });
    const before = (await fetchBriefsAll(client, { limit: 500 })).briefs.map(briefToRow);
    expect(before.length).toBe(232);
    const asOf = before.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
    await fetch(`${sb.url}/_sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_seconds: 86400 }) });
    const diff = await fetchBriefsDiff(client, asOf);
    const merged = mergeBriefDiff(before, diff);
    const after = (await fetchBriefsAll(client, { limit: 500 }, { refresh: true })).briefs.map(briefToRow);
    // live_as_of (the feeds' freshness) moves every day for every market; the scores only where recomputed.
    const scores = (rows: typeof after) => rows.map(({ live_as_of: _l, ...rest }) => rest);
    expect(scores(merged.rows)).toEqual(scores(after));
    const moved = after.filter((r, i) => r.computed_at !== before[i].computed_at).map((r) => r.market_slug);
    expect(moved.length).toBeGreaterThan(0);
    expect(new Set([...merged.changed, ...merged.added])).toEqual(new Set(moved));
    expect(diff.changed_total).toBe(moved.length);
    expect(merged.asOf > asOf).toBe(true);
  });
});
