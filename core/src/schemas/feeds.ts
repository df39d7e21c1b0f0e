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
  limit: optionalNumber({
    min: 1,
    max: NEWS_MAX_LIMIT,
    int: true,
    description: `Articles to return, 1-${NEWS_MAX_LIMIT} (default 10; 50 on the alias paths)`,
  }),
  query: optionalString({ maxLength: 200, description: 'Case-insensitive text match on title, summary or source' }),
  category: optionalString({ maxLength: 60, description: 'Case-insensitive category match' }),
  source: optionalString({ maxLength: 100, description: 'Case-insensitive source-name match' }),
});

const ntext = z.string().nullable();
const nnum = z.number().nullable();

export const NewsArticle = z.looseObject({
  id: z.union([z.number(), z.string()]).nullable().optional(),
  title: z.string(),
  summary: ntext,
  url: ntext,
  source: ntext,
  published_at: ntext,
  category: ntext,
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
  limit: optionalNumber({
    min: 1,
    max: TRANSACTIONS_MAX_LIMIT,
    int: true,
    description: `Deals to return, 1-${TRANSACTIONS_MAX_LIMIT} (default 20; 100 on /api/deals and /api/v1/deals)`,
  }),
  deal_type: feedChoiceParam(DEAL_TYPES, {
    description: 'Deal type',
    aliases: { 'joint-venture': 'joint_venture', jv: 'joint_venture', ma: 'acquisition' },
  }),
  year: optionalNumber({ min: 2000, max: 2100, int: true, description: 'Calendar year of the deal' }),
  buyer: optionalString({ maxLength: 100, description: 'Case-insensitive buyer substring' }),
  seller: optionalString({ maxLength: 100, description: 'Case-insensitive seller substring' }),
});

/** A deal. Keyless callers of the real service get only buyer, seller, market, date, type and region. */
export const Transaction = z.looseObject({
  id: z.union([z.number(), z.string()]).nullable().optional(),
  date: ntext,
  year: nnum.optional(),
  buyer: ntext,
  seller: ntext,
  type: ntext,
  value: nnum.optional(),
  value_display: ntext.optional(),
  mw: nnum.optional(),
  market: ntext,
  region: ntext,
});

const Tally = z.looseObject({ count: nnum, value: nnum });

export const TransactionList = z.looseObject({
  success: z.boolean(),
  transactions: z.array(Transaction),
  count: z.number(),
  total_count: z.number(),
  total_value: nnum.optional(),
  stats_by_type: z.record(z.string(), Tally).optional(),
  stats_by_year: z.record(z.string(), Tally).optional(),
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

/** A project. The real rows carry no `id`, and `status` may be `operational`. */
export const PipelineProject = z.looseObject({
  id: z.union([z.number(), z.string()]).nullable().optional(),
  company: ntext,
  project: ntext,
  market: ntext,
  capacity: nnum,
  investment: nnum,
  delivery: ntext,
  status: z.string(),
  preleased: z.boolean().nullable(),
  type: ntext,
});

export const PipelineStats = z
  .looseObject({
    total_mw: nnum,
    total_gw: nnum,
    total_investment_millions: nnum,
    total_investment_billions: nnum,
    preleased_percentage: nnum,
    construction_count: nnum,
    announced_count: nnum,
    unique_markets: nnum,
  })
  .partial();

export const PipelineResponse = z.looseObject({
  success: z.boolean(),
  data: z.array(PipelineProject),
  pipeline: z.array(PipelineProject),
  count: z.number(),
  total_count: z.number(),
  stats: PipelineStats.optional(),
  by_quarter: z.record(z.string(), z.looseObject({ capacity: nnum, projects: nnum, preleased: nnum })).optional(),
  last_updated: ntext.optional(),
});

export type NewsArticleT = z.infer<typeof NewsArticle>;
export type NewsListT = z.infer<typeof NewsList>;
export type TransactionT = z.infer<typeof Transaction>;
export type TransactionListT = z.infer<typeof TransactionList>;
export type PipelineProjectT = z.infer<typeof PipelineProject>;
export type PipelineResponseT = z.infer<typeof PipelineResponse>;
