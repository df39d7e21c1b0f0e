import { z } from 'zod';
import { choiceParam, optionalNumber, optionalString } from './params.js';

/**
 * Feeds: news, transactions (deals) and the construction pipeline (spec §4.1, notes §2.12-2.14).
 */

/** A parameter limited to a fixed list of words (any case); see `choiceParam`. */
export const feedChoiceParam = choiceParam;

// ---------------------------------------------------------------- news

export const NEWS_MAX_LIMIT = 200;

export const NewsQuery = z.object({
  limit: optionalNumber({ min: 1, max: NEWS_MAX_LIMIT, int: true, description: 'Articles to return (default 10; 50 on the alias paths; max 200)' }),
  query: optionalString({ maxLength: 200, description: 'Case-insensitive text match on title, summary or source' }),
  category: optionalString({ maxLength: 60, description: 'Case-insensitive category match' }),
  source: optionalString({ maxLength: 100, description: 'Case-insensitive source-name match' }),
});

export const NewsArticle = z.looseObject({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  url: z.string(),
  source: z.string(),
  published_at: z.string(),
  category: z.string(),
});

export const NewsList = z.looseObject({
  success: z.boolean(),
  articles: z.array(NewsArticle),
  count: z.number(),
  total: z.number(),
  source: z.string(),
});

// ---------------------------------------------------------------- transactions

export const DEAL_TYPES = ['acquisition', 'investment', 'joint_venture', 'lease', 'development', 'merger'] as const;
export type DealType = (typeof DEAL_TYPES)[number];
export const TRANSACTIONS_MAX_LIMIT = 500;

export const TransactionsQuery = z.object({
  limit: optionalNumber({ min: 1, max: TRANSACTIONS_MAX_LIMIT, int: true, description: 'Deals to return (default 20; 100 on /api/deals and /api/v1/deals; max 500)' }),
  deal_type: feedChoiceParam(DEAL_TYPES, { description: 'Deal type', aliases: { 'joint-venture': 'joint_venture', jv: 'joint_venture', ma: 'acquisition' } }),
  year: optionalNumber({ min: 2000, max: 2100, int: true, description: 'Calendar year of the deal' }),
  buyer: optionalString({ maxLength: 100, description: 'Case-insensitive buyer substring' }),
  seller: optionalString({ maxLength: 100, description: 'Case-insensitive seller substring' }),
});

export const Transaction = z.looseObject({
  id: z.number(),
  date: z.string(),
  year: z.number(),
  buyer: z.string(),
  seller: z.string(),
  type: z.string(),
  value: z.number().nullable(),
  value_display: z.string(),
  mw: z.number().nullable(),
  market: z.string(),
  region: z.string(),
});

export const TransactionList = z.looseObject({
  success: z.boolean(),
  transactions: z.array(Transaction),
  count: z.number(),
  total_count: z.number(),
  total_value: z.number(),
  stats_by_type: z.record(z.string(), z.looseObject({ count: z.number(), value: z.number() })),
  stats_by_year: z.record(z.string(), z.looseObject({ count: z.number(), value: z.number() })),
});

// ---------------------------------------------------------------- pipeline

export const PIPELINE_STATUSES = ['construction', 'announced', 'all'] as const;

export const PipelineQuery = z.object({
  status: feedChoiceParam(PIPELINE_STATUSES, {
    description: 'construction, announced or all (default all)',
    aliases: { under_construction: 'construction', in_progress: 'construction', planned: 'announced' },
  }),
  market: optionalString({ maxLength: 100, description: 'Case-insensitive market match (name or slug)' }),
  company: optionalString({ maxLength: 100, description: 'Case-insensitive company match' }),
  limit: optionalNumber({ min: 1, max: 1000, int: true, description: 'Projects to return (default 200, max 1000)' }),
});

export const PipelineProject = z.looseObject({
  id: z.number(),
  company: z.string(),
  project: z.string(),
  market: z.string(),
  capacity: z.number(),
  investment: z.number(),
  delivery: z.string(),
  status: z.enum(['construction', 'announced']),
  preleased: z.boolean(),
  type: z.string(),
});

export const PipelineStats = z.looseObject({
  total_mw: z.number(),
  total_gw: z.number(),
  total_investment_millions: z.number(),
  total_investment_billions: z.number(),
  preleased_percentage: z.number(),
  construction_count: z.number(),
  announced_count: z.number(),
  unique_markets: z.number(),
});

export const PipelineResponse = z.looseObject({
  success: z.boolean(),
  data: z.array(PipelineProject),
  pipeline: z.array(PipelineProject),
  count: z.number(),
  total_count: z.number(),
  stats: PipelineStats,
  by_quarter: z.record(z.string(), z.looseObject({ capacity: z.number(), projects: z.number(), preleased: z.number() })),
  last_updated: z.string(),
});

export type NewsArticleT = z.infer<typeof NewsArticle>;
export type NewsListT = z.infer<typeof NewsList>;
export type TransactionT = z.infer<typeof Transaction>;
export type TransactionListT = z.infer<typeof TransactionList>;
export type PipelineProjectT = z.infer<typeof PipelineProject>;
export type PipelineResponseT = z.infer<typeof PipelineResponse>;
