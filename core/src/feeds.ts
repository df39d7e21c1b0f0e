import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { readNews, readPipeline, readTransactions } from './read/feeds.js';
import {
  NewsQuery,
  PipelineQuery,
  TransactionsQuery,
  type NewsListT,
  type PipelineResponseT,
  type TransactionListT,
} from './schemas/feeds.js';
import { tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

const query = (o: Record<string, string | number | boolean | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  return p;
};

const joinList = (v: unknown): unknown => (Array.isArray(v) ? v.join(', ') : v);

// ---------------------------------------------------------------- news

/** `/api/news` answers 10 articles by default; the alias listings answer 50. */
export const NEWS_PATHS = [ENDPOINTS.news.path, ENDPOINTS.newsListing.path, ...ENDPOINTS.newsListing.aliases] as const;
export type NewsPath = (typeof NEWS_PATHS)[number];

export type NewsInput = z.input<typeof NewsQuery>;

export interface NewsOptions extends CallOptions {
  /** Which listing to read (default `/api/news`). */
  path?: NewsPath;
}

/** GET /api/news (or an alias): articles newest first, refreshed every 5 minutes. */
export async function news(client: DchubClient, q: NewsInput = {}, opts: NewsOptions = {}): Promise<NewsListT> {
  const { path = ENDPOINTS.news.path, ...call } = opts;
  if (!(NEWS_PATHS as readonly string[]).includes(path))
    throw new ValidationError('path', `must be one of ${NEWS_PATHS.join(', ')}, got ${JSON.stringify(path)}`);
  const f = parseParams(NewsQuery, q);
  return client.getJson(
    path,
    readNews,
    query({ limit: f.limit, query: f.query, category: f.category, source: f.source }),
    call,
  );
}

export const NEWS_COLUMNS = [
  'published_at',
  'source',
  'title',
  'category',
  'url',
  'summary',
  'tags',
  'is_breaking',
  'relevance_score',
  'id',
] as const;

export const newsTable = (n: NewsListT): Table =>
  tableFromRecords(
    n.articles.map((a) => ({ ...a, tags: joinList(a.tags) })),
    NEWS_COLUMNS,
    {
      citation: (n as { _cite?: string })._cite,
      asOf: n.articles[0]?.published_at ?? undefined,
      note: n.total > n.count ? `${n.count} of ${n.total} articles` : undefined,
    },
  );

// ---------------------------------------------------------------- transactions

export type TransactionsInput = z.input<typeof TransactionsQuery>;

export interface TransactionsOptions extends CallOptions {
  /** Read an alias listing (default 100 deals) instead of /api/v1/transactions (default 20). */
  alias?: '/api/deals' | '/api/v1/deals';
}

/** GET /api/v1/transactions: M&A and investment deals, newest first; values in millions USD. */
export async function transactions(
  client: DchubClient,
  q: TransactionsInput = {},
  opts: TransactionsOptions = {},
): Promise<TransactionListT> {
  const { alias, ...call } = opts;
  if (alias !== undefined && alias !== '/api/deals' && alias !== '/api/v1/deals') {
    throw new ValidationError('alias', `must be /api/deals or /api/v1/deals, got ${JSON.stringify(alias)}`);
  }
  const f = parseParams(TransactionsQuery, q);
  return client.getJson(
    alias ?? ENDPOINTS.transactions.path,
    readTransactions,
    query({ limit: f.limit, deal_type: f.deal_type, year: f.year, buyer: f.buyer, seller: f.seller }),
    call,
  );
}

export const DEAL_COLUMNS = [
  'date',
  'buyer',
  'seller',
  'type',
  'value',
  'value_display',
  'mw',
  'market',
  'country',
  'region',
  'category',
  'year',
  'value_confirmed',
  'description',
  'id',
] as const;

export const dealsTable = (t: TransactionListT): Table =>
  tableFromRecords(t.transactions, DEAL_COLUMNS, {
    citation: (t as { _cite?: string })._cite,
    note: `Values in millions USD${t.total_count > t.count ? `; ${t.count} of ${t.total_count} deals` : ''}`,
  });

// ---------------------------------------------------------------- pipeline

export type PipelineInput = z.input<typeof PipelineQuery>;

/** GET /api/v1/pipeline: projects under construction or announced, with totals. */
export async function pipeline(
  client: DchubClient,
  q: PipelineInput = {},
  opts: CallOptions = {},
): Promise<PipelineResponseT> {
  const f = parseParams(PipelineQuery, q);
  return client.getJson(
    ENDPOINTS.pipeline.path,
    readPipeline,
    query({ status: f.status, market: f.market, company: f.company, limit: f.limit }),
    opts,
  );
}

export const PIPELINE_COLUMNS = [
  'id',
  'company',
  'project',
  'market',
  'city',
  'state',
  'country',
  'capacity',
  'investment',
  'delivery',
  'status',
  'preleased',
  'type',
  'lat',
  'lng',
] as const;

export const pipelineTable = (p: PipelineResponseT): Table =>
  tableFromRecords(p.data, PIPELINE_COLUMNS, {
    citation: (p as { _cite?: string })._cite,
    asOf: p.last_updated ?? undefined,
    note: `capacity in MW, investment in millions USD${p.total_count > p.count ? `; ${p.count} of ${p.total_count} projects` : ''}`,
  });
