import { beforeEach, describe, expect, it } from 'vitest';
import { MarketBriefAll, MarketBriefCapExceeded, MarketBriefDiff } from '@dchub/core';
import { moveClock, useRestSandbox } from './support/sandbox.js';

/** What changes from day to day: the daily caps of the bulk endpoints, and the diff after the daily recompute. */
const { sb, call, resetLimits } = useRestSandbox();
beforeEach(resetLimits);
/** The five markets every tier below Pro sees: the first of the 15 seed markets. */
const FREE_SEEDS = ['northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago'];

describe('daily caps of the bulk endpoints', () => {
  it.each(['/api/v1/market-brief/all', '/api/v1/market-brief/diff', '/api/v1/market-brief/all.csv'])(
    'anonymous: the 4th call of %s is refused with 429 and Retry-After',
    async (path) => {
      for (let i = 0; i < 3; i++) expect((await call(path, 'anonymous')).status).toBe(200);
      const r = await call(path, 'anonymous');
      expect(r.status).toBe(429);
      const body = MarketBriefCapExceeded.parse(r.body);
      expect(body).toMatchObject({ tier: 'anonymous', limit: '3/day', current_count: 3 });
      expect(r.headers.get('retry-after')).toBe('3600');
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    },
  );
  it('counts per endpoint: a spent /all cap leaves /all.csv open', async () => {
    for (let i = 0; i < 3; i++) await call('/api/v1/market-brief/all', 'anonymous');
    expect((await call('/api/v1/market-brief/all', 'anonymous')).status).toBe(429);
    expect((await call('/api/v1/market-brief/all.csv', 'anonymous')).status).toBe(200);
  });
  it('starter: 10 a day, the 11th is refused (developer: 50, reference notes §2.29)', async () => {
    for (let i = 0; i < 10; i++) expect((await call('/api/v1/market-brief/all', 'starter')).status).toBe(200);
    const r = await call('/api/v1/market-brief/all', 'starter');
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error: 'daily_cap_exceeded', limit: '10/day' });
    expect(r.headers.get('x-ratelimit-limit')).toBe('10');
  });
  it('pro and enterprise have no cap', async () => {
    for (const tier of ['pro', 'enterprise'] as const) {
      for (let i = 0; i < 15; i++) expect((await call('/api/v1/market-brief/diff', tier)).status).toBe(200);
    }
  });
  it('the cap resets with the next day', async () => {
    for (let i = 0; i < 3; i++) await call('/api/v1/market-brief/all', 'anonymous');
    expect((await call('/api/v1/market-brief/all', 'anonymous')).status).toBe(429);
    const clock = (await (await fetch(`${sb.url}/_sandbox/clock`)).json()).now as string;
    await moveClock(sb, { advance_seconds: 86_400 });
    expect((await call('/api/v1/market-brief/all', 'anonymous')).status).toBe(200);
    await moveClock(sb, { set: clock });
  });
});

describe('GET /api/v1/market-brief/diff', () => {
  it('returns exactly the markets whose computed_at moved after the daily recompute', async () => {
    const before = MarketBriefAll.parse((await call('/api/v1/market-brief/all?limit=500')).body);
    expect(before.briefs).toHaveLength(232);
    const none = MarketBriefDiff.parse(
      (await call(`/api/v1/market-brief/diff?since=${encodeURIComponent(before.as_of)}&limit=500`)).body,
    );
    expect(none.changed_total).toBe(0);
    expect(none.briefs).toEqual([]);

    const moved = await moveClock(sb, { advance_seconds: 86_400 });
    expect(moved.status).toBe(200);
    const after = MarketBriefAll.parse((await call('/api/v1/market-brief/all?limit=500')).body);
    const was = new Map(before.briefs.map((b) => [b.slug, b.hero.computed_at]));
    const changed = after.briefs.filter((b) => b.hero.computed_at !== was.get(b.slug)).map((b) => b.slug);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(30);

    const r = await call(`/api/v1/market-brief/diff?since=${encodeURIComponent(before.as_of)}&limit=500`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'as_of',
      'since',
      'tier',
      'count',
      'total_available',
      'changed_total',
      'limit',
      'offset',
      'streamed',
      'briefs',
    ]);
    const diff = MarketBriefDiff.parse(r.body);
    expect(diff.since).toBe(before.as_of);
    expect(diff.changed_total).toBe(changed.length);
    expect(diff.count).toBe(changed.length);
    expect(diff.total_available).toBe(232);
    expect(diff.briefs.map((b) => b.slug)).toEqual(changed);
    expect(r.headers.get('x-market-brief-mode')).toBe('batch-diff');
    // Changed briefs equal their /all versions.
    const inAll = new Map(after.briefs.map((b) => [b.slug, b]));
    for (const b of diff.briefs) expect(b).toEqual(inAll.get(b.slug));

    // A date, or a time without zone, is read as UTC.
    const sinceDay = MarketBriefDiff.parse(
      (await call(`/api/v1/market-brief/diff?since=${before.as_of.slice(0, 10)}&limit=500`)).body,
    );
    expect(sinceDay.since).toBe(`${before.as_of.slice(0, 10)}T00:00:00.000Z`);
    expect(sinceDay.changed_total).toBeGreaterThanOrEqual(changed.length);
    const noZone = MarketBriefDiff.parse(
      (await call(`/api/v1/market-brief/diff?since=${before.as_of.slice(0, 19)}&limit=500`)).body,
    );
    expect(noZone.briefs.map((b) => b.slug)).toEqual(changed);
  });
  it("scopes the diff to the tier's markets", async () => {
    const free = MarketBriefDiff.parse((await call('/api/v1/market-brief/diff?since=2026-01-01', 'free')).body);
    expect(free.total_available).toBe(5);
    expect(free.briefs.every((b) => FREE_SEEDS.includes(b.slug))).toBe(true);
    const all = MarketBriefDiff.parse((await call('/api/v1/market-brief/diff', 'free')).body);
    expect(all.since).toBeNull();
    expect(all.changed_total).toBe(5);
  });
  it.each(['yesterday', '2026-13-45', '21/11/2026', '1700000000'])('refuses since=%s naming since', async (since) => {
    const r = await call(`/api/v1/market-brief/diff?since=${encodeURIComponent(since)}`);
    expect(r.status).toBe(400);
    expect(r.body.param).toBe('since');
    expect(r.body.error).toMatch(/^since:/);
  });
});
