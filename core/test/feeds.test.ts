import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import { expectShape, feedsSandbox, fetchMetaOf, rejectsParam } from './support/feeds-sandbox.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('feeds, energy, agent (%s profile)', (profile) => {
  const { url, client, raw } = feedsSandbox(profile);

  describe('feeds', () => {
    it('news matches the sandbox; the table has a stable column order', async () => {
      const c = client();
      const n = await core.news(c, { limit: 5 });
      expect(n).toEqual(await raw('/api/news?limit=5'));
      const t = core.newsTable(n);
      expect(t.columns.slice(0, 5)).toEqual(['published_at', 'source', 'title', 'category', 'url']);
      expect(t.columns).toEqual([...core.NEWS_COLUMNS]);
      expectShape(t, 5, ['relevance_score', 'id']);
      expect(t.rows[0][0]).toBe(n.articles[0].published_at);
      expect(core.newsTable({ ...n, articles: [], count: 0 }).columns).toEqual(t.columns);
      // default limit of /api/news is 10
      expect((await core.news(c)).count).toBe(10);
    });

    it('news alias paths answer 50 by default, as the sandbox does', async () => {
      const c = client();
      for (const path of ['/api/news/live', '/api/agent/news', '/api/news-feed', '/api/v1/news'] as const) {
        const n = await core.news(c, {}, { path });
        expect(n).toEqual(await raw(path));
        expect(n.count).toBe(50);
        expectShape(core.newsTable(n), 50, ['id']);
      }
    });

    it('transactions and the deal aliases', async () => {
      const c = client();
      // A keyed caller of the real service names a year, buyer or seller (notes §2.13, checklist 1).
      const real = profile === 'real';
      const t = await core.transactions(c, { limit: 10, deal_type: 'jv', ...(real ? { year: 2025 } : {}) });
      expect(t).toEqual(await raw(`/api/v1/transactions?limit=10&deal_type=joint_venture${real ? '&year=2025' : ''}`));
      expect(t.transactions.every((d) => d.type === 'joint_venture')).toBe(true);
      const tab = core.dealsTable(t);
      expect(tab.columns).toEqual([...core.DEAL_COLUMNS]);
      expectShape(tab, t.count, ['year', 'id']);
      expectShape(tab, t.count, ['value', 'mw'], { allowBlank: true }); // undisclosed values are null → ''
      expect(tab.rows.some((r) => typeof r[tab.columns.indexOf('value')] === 'number')).toBe(true);
      expect(tab.rows.some((r) => typeof r[tab.columns.indexOf('mw')] === 'number')).toBe(true);
      if (real) {
        const e = await core.transactions(c).catch((err: unknown) => err);
        expect(e).toBeInstanceOf(core.ValidationError);
        expect((e as Error).message).toBe('request: At least one filter is required: year, buyer, seller');
      } else {
        expect((await core.transactions(c)).count).toBe(20);
      }
      for (const alias of ['/api/deals', '/api/v1/deals'] as const) {
        const d = await core.transactions(c, {}, { alias });
        expect(d).toEqual(await raw(alias));
        expect(d.count).toBe(Math.min(100, d.total_count));
      }
    });

    it('pipeline matches the sandbox; status aliases are mapped', async () => {
      const c = client();
      const p = await core.pipeline(c, { status: 'under_construction', limit: 15 });
      expect(p).toEqual(await raw('/api/v1/pipeline?status=construction&limit=15'));
      expect(p.data.every((x) => x.status === 'construction')).toBe(true);
      const t = core.pipelineTable(p);
      expect(t.columns).toEqual([...core.PIPELINE_COLUMNS]);
      expectShape(t, 15, ['id', 'capacity', 'investment', 'lat', 'lng']);
      expect(t.rows.every((r) => typeof r[t.columns.indexOf('preleased')] === 'boolean')).toBe(true);
      expect(t.asOf).toBe(p.last_updated);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.news(c, { limit: 201 }), 'limit');
      await rejectsParam(core.news(c, { limit: 'ten' }), 'limit');
      await rejectsParam(core.news(c, {}, { path: '/api/nope' as core.NewsPath }), 'path');
      await rejectsParam(core.transactions(c, { deal_type: 'gift' }), 'deal_type');
      await rejectsParam(core.transactions(c, { year: 1999 }), 'year');
      await rejectsParam(core.transactions(c, {}, { alias: '/api/v2/deals' as '/api/deals' }), 'alias');
      await rejectsParam(core.pipeline(c, { status: 'done' }), 'status');
      await rejectsParam(core.pipeline(c, { limit: 1001 }), 'limit');
      expect(c.requestsSent).toBe(0);
    });
  });

  describe('news refresh after the clock moves', () => {
    it('a cached answer until refresh, then a newer first article', async () => {
      const c = client();
      const before = await core.news(c, { limit: 3 });
      const cached = await core.news(c, { limit: 3 });
      expect(fetchMetaOf(cached).fromCache).toBe(true);
      const moved = await (
        await fetch(`${url()}/_sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance_seconds: 300 }),
        })
      ).json();
      expect(moved.now).toMatch(/^2026-11-21T12:0[5-9]:/); // the sandbox clock runs on from its start time
      expect((await core.news(c, { limit: 3 })).articles[0].id).toBe(before.articles[0].id);
      const after = await core.news(c, { limit: 3 }, { refresh: true });
      expect(fetchMetaOf(after).fromCache).toBe(false);
      expect(after).toEqual(await raw('/api/news?limit=3'));
      expect(after.articles[0].id).not.toBe(before.articles[0].id);
      expect(Date.parse(after.articles[0].published_at!)).toBeGreaterThan(Date.parse(before.articles[0].published_at!));
      expect(core.newsTable(after).rows[0][0]).toBe(after.articles[0].published_at);
    });
  });
});
