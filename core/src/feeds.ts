import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { ValidationError } from './errors.js';
import { tableFor, type InputOf } from './resource.js';
import { byInput, fetchData } from './resource-call.js';
import type { NewsListT, TransactionListT } from './schemas/feeds.js';

export { DEAL_COLUMNS, NEWS_COLUMNS, PIPELINE_COLUMNS } from './resources/feeds.js';

// ---------------------------------------------------------------- news

/** `/api/news` answers 10 articles by default; the alias listings answer 50. */
export const NEWS_PATHS = [ENDPOINTS.news.path, ENDPOINTS.newsListing.path, ...ENDPOINTS.newsListing.aliases] as const;
export type NewsPath = (typeof NEWS_PATHS)[number];

export type NewsInput = InputOf<typeof ENDPOINTS.news>;

export interface NewsOptions extends CallOptions {
  /** Which listing to read (default `/api/news`). */
  path?: NewsPath;
}

/** GET /api/news (or an alias): articles newest first, refreshed every 5 minutes. */
export async function news(client: DchubClient, q: NewsInput = {}, opts: NewsOptions = {}): Promise<NewsListT> {
  const { path = ENDPOINTS.news.path, ...call } = opts;
  if (!(NEWS_PATHS as readonly string[]).includes(path))
    throw new ValidationError('path', `must be one of ${NEWS_PATHS.join(', ')}, got ${JSON.stringify(path)}`);
  const listing = path === ENDPOINTS.news.path ? ENDPOINTS.news : ENDPOINTS.newsListing;
  return fetchData(client, listing, q, { ...call, via: path });
}

export const newsTable = /* @__PURE__ */ tableFor(ENDPOINTS.news);

// ---------------------------------------------------------------- transactions

export type TransactionsInput = InputOf<typeof ENDPOINTS.transactions>;

/** The deal listings beside /api/v1/transactions (default 100 deals). */
export const DEAL_PATHS = [ENDPOINTS.deals.path, ...ENDPOINTS.deals.aliases] as const;

export interface TransactionsOptions extends CallOptions {
  /** Read an alias listing (default 100 deals) instead of /api/v1/transactions (default 20). */
  alias?: (typeof DEAL_PATHS)[number];
}

/** GET /api/v1/transactions: M&A and investment deals, newest first; values in millions USD. */
export async function transactions(
  client: DchubClient,
  q: TransactionsInput = {},
  opts: TransactionsOptions = {},
): Promise<TransactionListT> {
  const { alias, ...call } = opts;
  if (alias !== undefined && !(DEAL_PATHS as readonly string[]).includes(alias))
    throw new ValidationError('alias', `must be ${DEAL_PATHS.join(' or ')}, got ${JSON.stringify(alias)}`);
  if (alias === undefined) return fetchData(client, ENDPOINTS.transactions, q, call);
  return fetchData(client, ENDPOINTS.deals, q, { ...call, via: alias });
}

export const dealsTable = /* @__PURE__ */ tableFor(ENDPOINTS.transactions);

// ---------------------------------------------------------------- pipeline

export type PipelineInput = InputOf<typeof ENDPOINTS.pipeline>;

/** GET /api/v1/pipeline: projects under construction or announced, with totals. */
export const pipeline = /* @__PURE__ */ byInput(ENDPOINTS.pipeline);

export const pipelineTable = /* @__PURE__ */ tableFor(ENDPOINTS.pipeline);
