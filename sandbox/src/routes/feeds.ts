import {
  DEAL_TYPES,
  ErrorBody,
  NewsList,
  NewsQuery,
  PipelineQuery,
  PipelineResponse,
  TransactionList,
  TransactionsQuery,
} from '@dchub/core';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { SandboxEnv } from '../app.js';
import type { SandboxContext } from '../context.js';
import { DEAL_TYPE_LABELS, generateDeals, type Deal } from '../data/deals.js';
import { NEWS_BATCH_MS, generateNewsPool, newsArchive, type NewsArticleRecord } from '../data/news.js';
import { generatePipeline, type PipelineProjectRecord } from '../data/pipeline.js';
import { CITATION, CITE, SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import type { RouteRegistry } from '../registry.js';
import { round } from '../rng.js';

/** Deals of the data set, newest first (generated once per seed). */
export const allDeals = (ctx: SandboxContext): Deal[] => ctx.data.lazy('deals', () => generateDeals(ctx.seed));

/** Deals dated on or before the sandbox clock's day. */
export function dealsAsOf(ctx: SandboxContext, nowMs: number): Deal[] {
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const deals = allDeals(ctx);
  const first = deals.findIndex((d) => d.date <= today);
  return first < 0 ? [] : first === 0 ? deals : deals.slice(first);
}

/** The news archive as of the sandbox clock (newest first); cached per 5-minute batch. */
export function newsAsOf(ctx: SandboxContext, nowMs: number): NewsArticleRecord[] {
  const pool = ctx.data.lazy('news-pool', () => generateNewsPool(ctx.seed, allDeals(ctx)));
  const cache = ctx.data.lazy('news-archive-cache', () => ({ batch: Number.NaN, archive: [] as NewsArticleRecord[] }));
  const batch = Math.floor(nowMs / NEWS_BATCH_MS);
  if (cache.batch !== batch) {
    cache.archive = newsArchive(ctx.seed, pool, nowMs);
    cache.batch = batch;
  }
  return cache.archive;
}

export const allPipeline = (ctx: SandboxContext): PipelineProjectRecord[] =>
  ctx.data.lazy('pipeline', () => generatePipeline(ctx.seed, ctx.data.infra.facilities));

const NEWS_ALIASES_DEFAULT = 50;

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  // ---------------------------------------------------------------- news
  const newsHandler =
    (defaultLimit: number) =>
    (c: Context<SandboxEnv>, { query }: { query: z.output<typeof NewsQuery> }) => {
      const now = ctx.clock.nowMs();
      let articles = newsAsOf(ctx, now);
      const q = query.query?.toLowerCase();
      const cat = query.category?.toLowerCase();
      const src = query.source?.toLowerCase();
      if (q || (cat && cat !== 'all') || src) {
        articles = articles.filter(
          (a) =>
            (!q || a.title.toLowerCase().includes(q) || a.summary.toLowerCase().includes(q) || a.source.toLowerCase().includes(q)) &&
            (!cat || cat === 'all' || a.category.toLowerCase().includes(cat)) &&
            (!src || a.source.toLowerCase().includes(src)),
        );
      }
      const rows = articles.slice(0, query.limit ?? defaultLimit).map(({ publishedMs: _p, ...a }) => a);
      return c.json({
        success: true,
        articles: rows,
        data: rows,
        count: rows.length,
        total: articles.length,
        source: 'sandbox/news_articles (synthetic)',
        refresh_interval_seconds: NEWS_BATCH_MS / 1000,
        next_refresh_at: new Date((Math.floor(now / NEWS_BATCH_MS) + 1) * NEWS_BATCH_MS).toISOString(),
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    };
  const newsResponses = {
    200: { description: 'News articles, newest first (only those published at or before the current time)', schema: NewsList },
    400: { description: 'A parameter is invalid', schema: ErrorBody },
  };
  r.add({
    method: 'get',
    path: '/api/news',
    summary: 'Industry news from 40+ sources, refreshed every 5 minutes (default 10 articles)',
    tags: ['Public'],
    query: NewsQuery,
    responses: newsResponses,
    handler: newsHandler(10),
  });
  r.add({
    method: 'get',
    path: '/api/v1/news',
    aliases: ['/api/news/live', '/api/agent/news', '/api/news-feed'],
    summary: 'Industry news (alias listing; default 50 articles)',
    tags: ['Public'],
    query: NewsQuery,
    responses: newsResponses,
    handler: newsHandler(NEWS_ALIASES_DEFAULT),
  });

  // ---------------------------------------------------------------- transactions
  const dealsHandler =
    (defaultLimit: number) =>
    (c: Context<SandboxEnv>, { query }: { query: z.output<typeof TransactionsQuery> }) => {
      const now = ctx.clock.nowMs();
      const buyer = query.buyer?.toLowerCase();
      const seller = query.seller?.toLowerCase();
      const matching = dealsAsOf(ctx, now).filter(
        (d) =>
          (!query.deal_type || d.type === query.deal_type) &&
          (query.year === undefined || d.year === query.year) &&
          (!buyer || d.buyer.toLowerCase().includes(buyer)) &&
          (!seller || d.seller.toLowerCase().includes(seller)),
      );
      const byType: Record<string, { count: number; value: number }> = {};
      const byYear: Record<string, { count: number; value: number }> = {};
      let total = 0;
      for (const d of matching) {
        const v = d.value ?? 0;
        total += v;
        (byType[d.type] ??= { count: 0, value: 0 }).count++;
        byType[d.type].value = round(byType[d.type].value + v, 1);
        (byYear[d.year] ??= { count: 0, value: 0 }).count++;
        byYear[d.year].value = round(byYear[d.year].value + v, 1);
      }
      const rows = matching.slice(0, query.limit ?? defaultLimit);
      return c.json({
        success: true,
        transactions: rows,
        data: rows,
        count: rows.length,
        total_count: matching.length,
        total_matching: matching.length,
        total_tracked: allDeals(ctx).length,
        total_value: round(total, 1),
        value_unit: 'millions USD',
        stats_by_type: byType,
        stats_by_year: byYear,
        deal_types: DEAL_TYPE_LABELS,
        filters_applied: { deal_type: query.deal_type ?? null, year: query.year ?? null, buyer: query.buyer ?? null, seller: query.seller ?? null },
        data_source: 'synthetic',
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    };
  const dealResponses = {
    200: { description: 'Transactions, newest first; values in millions USD', schema: TransactionList },
    400: { description: `A parameter is invalid (deal_type must be one of ${DEAL_TYPES.join(', ')})`, schema: ErrorBody },
  };
  r.add({
    method: 'get',
    path: '/api/v1/transactions',
    summary: 'M&A and investment transactions (default 20)',
    tags: ['Public'],
    query: TransactionsQuery,
    responses: dealResponses,
    handler: dealsHandler(20),
  });
  r.add({
    method: 'get',
    path: '/api/v1/deals',
    aliases: ['/api/deals'],
    summary: 'M&A and investment transactions (alias listing; default 100)',
    tags: ['Public'],
    query: TransactionsQuery,
    responses: dealResponses,
    handler: dealsHandler(100),
  });

  // ---------------------------------------------------------------- pipeline
  r.add({
    method: 'get',
    path: '/api/v1/pipeline',
    summary: 'Construction pipeline: facilities under construction or announced',
    tags: ['Public'],
    query: PipelineQuery,
    responses: {
      200: { description: 'Pipeline projects with totals', schema: PipelineResponse },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const status = query.status ?? 'all';
      const market = query.market?.toLowerCase();
      const company = query.company?.toLowerCase();
      const matching = allPipeline(ctx).filter(
        (p) =>
          (status === 'all' || p.status === status) &&
          (!market || p.market.toLowerCase() === market || p.market_slug === market || p.market_slug === market.replace(/\s+/g, '-')) &&
          (!company || p.company.toLowerCase().includes(company)),
      );
      let mw = 0;
      let inv = 0;
      let pre = 0;
      const byQuarter: Record<string, { capacity: number; projects: number; preleased: number }> = {};
      for (const p of matching) {
        mw += p.capacity;
        inv += p.investment;
        if (p.preleased) pre++;
        const q = (byQuarter[p.delivery] ??= { capacity: 0, projects: 0, preleased: 0 });
        q.capacity = round(q.capacity + p.capacity, 1);
        q.projects++;
        if (p.preleased) q.preleased++;
      }
      const sortedQuarters = Object.fromEntries(Object.entries(byQuarter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      const rows = matching.slice(0, query.limit ?? 200);
      return c.json({
        success: true,
        data: rows,
        pipeline: rows,
        count: rows.length,
        total_count: matching.length,
        data_source: 'synthetic',
        stats: {
          total_mw: round(mw, 1),
          total_gw: round(mw / 1000, 2),
          total_investment_millions: round(inv, 1),
          total_investment_billions: round(inv / 1000, 2),
          preleased_percentage: matching.length ? round((pre / matching.length) * 100, 1) : 0,
          construction_count: matching.filter((p) => p.status === 'construction').length,
          announced_count: matching.filter((p) => p.status === 'announced').length,
          unique_markets: new Set(matching.map((p) => p.market)).size,
        },
        by_quarter: sortedQuarters,
        filters_applied: { status, market: query.market ?? null, company: query.company ?? null },
        last_updated: new Date(Math.floor(ctx.clock.nowMs() / 86_400_000) * 86_400_000).toISOString(),
        _source: SOURCE,
        _cite: CITE,
        citation: CITATION,
        note: SYNTHETIC_NOTICE,
      });
    },
  });
}
