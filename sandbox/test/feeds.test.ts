import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAL_TYPES, ErrorBody, NewsList, PipelineResponse, TransactionList } from '@dchub/core';
import { NEWS_SOURCES } from '../src/data/news.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

const OPTS = {
  port: 0,
  seed: 'x',
  now: '2026-11-21T12:01:00Z',
  keys: 'free=f1,developer=d1,pro=p1,enterprise=e1',
  controls: true,
} as const;
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox(OPTS);
});
afterAll(() => sb?.close());

const call = async (path: string, key: string | null = 'e1', url = sb.url) => {
  const res = await fetch(url + path, { headers: key ? { 'X-API-Key': key } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const expect400 = async (path: string, param: string) => {
  const { status, body } = await call(path);
  expect(status).toBe(400);
  ErrorBody.parse(body);
  expect(body.param).toBe(param);
  expect(body.error).toMatch(new RegExp(`^${param}:`));
};
const clock = (body: unknown) =>
  fetch(`${sb.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('news', () => {
  it('GET /api/news: default 10, newest first, nothing later than the sandbox clock, 40+ sources', async () => {
    const { status, body } = await call('/api/news');
    expect(status).toBe(200);
    const r = NewsList.parse(body);
    expect(r.count).toBe(10);
    expect(r.total).toBeGreaterThanOrEqual(4900);
    const now = sb.ctx.clock.nowMs();
    const times = r.articles.map((a) => Date.parse(a.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
    const all = NewsList.parse((await call('/api/news?limit=200')).body);
    expect(all.count).toBe(200);
    expect(NEWS_SOURCES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.articles.map((a) => a.source)).size).toBeGreaterThanOrEqual(30);
    expect(all.articles.every((a) => (NEWS_SOURCES as readonly string[]).includes(a.source))).toBe(true);
    expect(all.articles[0].summary).toMatch(/synthetic/i);
  });

  it('aliases default to 50 articles; limit max 200 (400 naming limit)', async () => {
    for (const p of ['/api/news/live', '/api/agent/news', '/api/news-feed', '/api/v1/news']) {
      const r = NewsList.parse((await call(p)).body);
      expect(r.count).toBe(50);
    }
    await expect400('/api/news?limit=201', 'limit');
    await expect400('/api/v1/news?limit=0', 'limit');
  });

  it('refreshes every 5 minutes: advancing the clock brings a newer batch', async () => {
    await clock({ set: '2026-11-21T12:01:00Z' });
    const before = NewsList.parse((await call('/api/news?limit=20')).body);
    const newest = Date.parse(before.articles[0].published_at);
    expect(newest).toBe(Date.parse('2026-11-21T12:00:00Z'));
    await clock({ advance_seconds: 300 });
    const after = NewsList.parse((await call('/api/news?limit=20')).body);
    const fresh = after.articles.filter((a) => Date.parse(a.published_at) > newest);
    expect(fresh.length).toBeGreaterThan(0);
    expect(Date.parse(fresh[0].published_at)).toBe(Date.parse('2026-11-21T12:05:00Z'));
    const oldIds = new Set(before.articles.map((a) => a.id));
    expect(fresh.every((a) => !oldIds.has(a.id))).toBe(true);
    // The previous newest articles are still there, just further down.
    expect(after.articles.map((a) => a.id)).toContain(before.articles[0].id);
    await clock({ set: '2026-11-21T12:01:00Z' });
  });
});

describe('transactions', () => {
  it('GET /api/v1/transactions: default 20, newest first, values in millions', async () => {
    const { status, body } = await call('/api/v1/transactions');
    expect(status).toBe(200);
    const r = TransactionList.parse(body);
    expect(r.count).toBe(20);
    expect(r.total_count).toBeGreaterThanOrEqual(1900);
    expect(r.total_count).toBeLessThanOrEqual(2100);
    const dates = r.transactions.map((t) => t.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(dates[0] <= '2026-11-21').toBe(true);
    const years = Object.keys(r.stats_by_year).map(Number);
    expect(Math.min(...years)).toBe(2019);
    expect(Math.max(...years)).toBe(2026);
    expect(Object.keys(r.stats_by_type).sort()).toEqual([...DEAL_TYPES].sort());
  });

  it('aliases /api/deals and /api/v1/deals default to 100; limit max 500', async () => {
    for (const p of ['/api/deals', '/api/v1/deals'])
      expect(TransactionList.parse((await call(p)).body).count).toBe(100);
    expect(TransactionList.parse((await call('/api/v1/transactions?limit=500')).body).count).toBe(500);
    await expect400('/api/v1/transactions?limit=501', 'limit');
  });

  it('deal_type filters to one of the six types; anything else is a 400 naming deal_type', async () => {
    for (const t of DEAL_TYPES) {
      const r = TransactionList.parse((await call(`/api/v1/transactions?deal_type=${t}&limit=50`)).body);
      expect(r.count).toBeGreaterThan(0);
      expect(r.transactions.every((x) => x.type === t)).toBe(true);
    }
    await expect400('/api/v1/transactions?deal_type=ipo', 'deal_type');
    await expect400('/api/deals?deal_type=foo', 'deal_type');
  });
});

describe('pipeline', () => {
  it('GET /api/v1/pipeline: construction and announced projects with stats', async () => {
    const { status, body } = await call('/api/v1/pipeline');
    expect(status).toBe(200);
    const r = PipelineResponse.parse(body);
    const inventory = sb.ctx.data.infra.facilities.filter((f) => f.status !== 'operational').length;
    expect(r.total_count).toBeGreaterThan(inventory);
    expect(r.stats.construction_count + r.stats.announced_count).toBe(r.total_count);
    expect(r.stats.total_gw).toBeCloseTo(r.stats.total_mw / 1000, 1);
    expect(r.data.every((p) => p.status === 'construction' || p.status === 'announced')).toBe(true);
    const quarters = Object.values(r.by_quarter).reduce((s, q) => s + q.projects, 0);
    expect(quarters).toBe(r.total_count);
  });

  it('filters by status and market; bad status is a 400 naming status', async () => {
    const c = PipelineResponse.parse((await call('/api/v1/pipeline?status=construction&limit=1000')).body);
    expect(c.data.every((p) => p.status === 'construction')).toBe(true);
    expect(c.stats.announced_count).toBe(0);
    const m = PipelineResponse.parse((await call('/api/v1/pipeline?market=dallas')).body);
    expect(m.total_count).toBeGreaterThan(0);
    expect(m.data.every((p) => p.market === 'Dallas')).toBe(true);
    await expect400('/api/v1/pipeline?status=demolished', 'status');
  });
});

describe('determinism', () => {
  it('one seed and clock give identical news and deals on a second sandbox; another seed differs', async () => {
    const twin = await startSandbox(OPTS);
    const other = await startSandbox({ ...OPTS, seed: 'y' });
    try {
      for (const p of ['/api/news?limit=50', '/api/v1/transactions?limit=100']) {
        const a = await fetch(sb.url + p, { headers: { 'X-API-Key': 'e1' } }).then((r) => r.text());
        const b = await fetch(twin.url + p, { headers: { 'X-API-Key': 'e1' } }).then((r) => r.text());
        const c = await fetch(other.url + p, { headers: { 'X-API-Key': 'e1' } }).then((r) => r.text());
        expect(b).toBe(a);
        expect(c).not.toBe(a);
      }
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
