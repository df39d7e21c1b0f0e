import type { NewsQuery, PipelineQuery, TransactionsQuery } from '@dchub/core';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { DEAL_TYPE_LABELS, generateDeals, type Deal } from '../data/deals.js';
import { NEWS_BATCH_MS, generateNewsPool, newsArchive, type NewsArticleRecord } from '../data/news.js';
import { generatePipeline, type PipelineProjectRecord } from '../data/pipeline.js';
import { attribution } from '../labels.js';
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

/** A page of a feed: how many rows, from which row, and any further narrowing (the MCP tools' own filters). */
export interface FeedPage<T> {
  limit: number;
  offset?: number;
  keep?: (record: T) => boolean;
}

/** The page's rows of everything that matched. */
const pageOf = <T>(rows: readonly T[], page: FeedPage<T>): T[] =>
  rows.slice(page.offset ?? 0, (page.offset ?? 0) + page.limit);

type NewsFilters = Partial<Pick<z.output<typeof NewsQuery>, 'query' | 'category' | 'source'>>;
type DealFilters = Partial<Pick<z.output<typeof TransactionsQuery>, 'deal_type' | 'year' | 'buyer' | 'seller'>>;
type PipelineFilters = Partial<Pick<z.output<typeof PipelineQuery>, 'status' | 'market' | 'company'>>;

export const allPipeline = (ctx: SandboxContext): PipelineProjectRecord[] =>
  ctx.data.lazy('pipeline', () => generatePipeline(ctx.seed, ctx.data.infra.facilities));

/** News as of `nowMs`, newest first, narrowed by the REST filters; `limit` rows. */
export function newsAnswer(ctx: SandboxContext, nowMs: number, f: NewsFilters, page: FeedPage<NewsArticleRecord>) {
  const now = nowMs;
  let articles = newsAsOf(ctx, now);
  if (page.keep) articles = articles.filter(page.keep);
  const q = f.query?.toLowerCase();
  const cat = f.category?.toLowerCase();
  const src = f.source?.toLowerCase();
  if (q || (cat && cat !== 'all') || src) {
    articles = articles.filter(
      (a) =>
        (!q ||
          a.title.toLowerCase().includes(q) ||
          a.summary.toLowerCase().includes(q) ||
          a.source.toLowerCase().includes(q)) &&
        (!cat || cat === 'all' || a.category.toLowerCase().includes(cat)) &&
        (!src || a.source.toLowerCase().includes(src)),
    );
  }
  const rows = pageOf(articles, page).map(({ publishedMs: _p, ...a }) => a);
  return {
    success: true,
    articles: rows,
    data: rows,
    count: rows.length,
    total: articles.length,
    source: 'sandbox/news_articles (synthetic)',
    refresh_interval_seconds: NEWS_BATCH_MS / 1000,
    next_refresh_at: new Date((Math.floor(now / NEWS_BATCH_MS) + 1) * NEWS_BATCH_MS).toISOString(),
    ...attribution(),
  };
}

/** Transactions dated up to `nowMs`, newest first, narrowed by the REST filters; `limit` rows. */
export function dealsAnswer(ctx: SandboxContext, nowMs: number, f: DealFilters, page: FeedPage<Deal>) {
  const now = nowMs;
  const buyer = f.buyer?.toLowerCase();
  const seller = f.seller?.toLowerCase();
  const matching = dealsAsOf(ctx, now).filter(
    (d) =>
      (!f.deal_type || d.type === f.deal_type) &&
      (f.year === undefined || d.year === f.year) &&
      (!buyer || d.buyer.toLowerCase().includes(buyer)) &&
      (!seller || d.seller.toLowerCase().includes(seller)) &&
      (!page.keep || page.keep(d)),
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
  const rows = pageOf(matching, page);
  return {
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
    filters_applied: {
      deal_type: f.deal_type ?? null,
      year: f.year ?? null,
      buyer: f.buyer ?? null,
      seller: f.seller ?? null,
    },
    data_source: 'synthetic',
    ...attribution(),
  };
}

/** Pipeline projects narrowed by the REST filters; `limit` rows, totals over every match. */
export function pipelineAnswer(
  ctx: SandboxContext,
  nowMs: number,
  f: PipelineFilters,
  page: FeedPage<PipelineProjectRecord>,
) {
  const status = f.status ?? 'all';
  const market = f.market?.toLowerCase();
  const company = f.company?.toLowerCase();
  const matching = allPipeline(ctx).filter(
    (p) =>
      (status === 'all' || p.status === status) &&
      (!market ||
        p.market.toLowerCase() === market ||
        p.market_slug === market ||
        p.market_slug === market.replace(/\s+/g, '-')) &&
      (!company || p.company.toLowerCase().includes(company)) &&
      (!page.keep || page.keep(p)),
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
  const rows = pageOf(matching, page);
  return {
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
    filters_applied: { status, market: f.market ?? null, company: f.company ?? null },
    last_updated: new Date(Math.floor(nowMs / 86_400_000) * 86_400_000).toISOString(),
    ...attribution(),
  };
}
