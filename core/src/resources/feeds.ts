import { readNews, readPipeline, readTransactions } from '../read/feeds.js';
import { resource } from '../resource.js';
import {
  NewsList,
  NewsQuery,
  PipelineQuery,
  PipelineResponse,
  TransactionList,
  TransactionsQuery,
  type NewsListT,
  type TransactionListT,
} from '../schemas/feeds.js';
import { latestTime } from '../table.js';

const joinList = (v: unknown): unknown => (Array.isArray(v) ? v.join(', ') : v);

export const NEWS_COLUMNS = [
  'published_at', 'source', 'title', 'category', 'url', 'summary', 'tags', 'is_breaking', 'relevance_score', 'id',
] as const; // prettier-ignore

export const DEAL_COLUMNS = [
  'date', 'buyer', 'seller', 'type', 'value', 'value_display', 'mw', 'market', 'country', 'region', 'category', 'year',
  'value_confirmed', 'description', 'id',
] as const; // prettier-ignore

export const PIPELINE_COLUMNS = [
  'id', 'company', 'project', 'market', 'city', 'state', 'country', 'capacity', 'investment', 'delivery', 'status',
  'preleased', 'type', 'lat', 'lng',
] as const; // prettier-ignore

/** Articles newest first (refreshed every 5 minutes). */
const newsList = {
  reader: readNews,
  table: {
    rows: (n: NewsListT) => n.articles.map((a) => ({ ...a, tags: joinList(a.tags) })),
    columns: NEWS_COLUMNS,
  },
  asOf: (n: NewsListT) => latestTime(n.articles.map((a) => a.published_at)),
  note: (n: NewsListT) => (n.total > n.count ? `${n.count} of ${n.total} articles` : undefined),
};

/** M&A and investment deals, newest first; values in millions USD. */
const dealList = {
  reader: readTransactions,
  table: { rows: (t: TransactionListT) => t.transactions, columns: DEAL_COLUMNS },
  note: (t: TransactionListT) =>
    `Values in millions USD${t.total_count > t.count ? `; ${t.count} of ${t.total_count} deals` : ''}`,
};

export const FEED_ENDPOINTS = {
  /** 10 articles by default. */
  news: resource({ method: 'get', path: '/api/news', query: NewsQuery, response: NewsList }, newsList),
  /** The alias listings answer 50 by default. */
  newsListing: resource(
    {
      method: 'get',
      path: '/api/v1/news',
      aliases: ['/api/news/live', '/api/agent/news', '/api/news-feed'],
      query: NewsQuery,
      response: NewsList,
    },
    newsList,
  ),
  /** 20 deals by default. */
  transactions: resource(
    { method: 'get', path: '/api/v1/transactions', query: TransactionsQuery, response: TransactionList },
    dealList,
  ),
  /** 100 deals by default. */
  deals: resource(
    {
      method: 'get',
      path: '/api/v1/deals',
      aliases: ['/api/deals'],
      query: TransactionsQuery,
      response: TransactionList,
    },
    dealList,
  ),
  /** Projects under construction or announced, with totals. */
  pipeline: resource(
    { method: 'get', path: '/api/v1/pipeline', query: PipelineQuery, response: PipelineResponse },
    {
      reader: readPipeline,
      table: { rows: (p) => p.data, columns: PIPELINE_COLUMNS },
      asOf: (p) => p.last_updated ?? undefined,
      note: (p) =>
        `capacity in MW, investment in millions USD${p.total_count > p.count ? `; ${p.count} of ${p.total_count} projects` : ''}`,
    },
  ),
};
