/** Feed tools over every deal, article and pipeline project of the data set (the data behind the REST feeds). */
import { TransactionsQuery, describeIssue, scalarText } from '@dchub/core';
import { dayIso, dayNumber } from '../../clock.js';
import type { Deal } from '../../data/deals.js';
import { NEWS_CATEGORIES } from '../../data/news.js';
import { dealsAnswer, newsAnswer, pipelineAnswer } from '../../domain/feeds.js';
import { labels, ToolError, type ToolEnv, type ToolResult } from './common.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const QUARTER = /^(\d{4})-Q([1-4])$/i;

/** A YYYY-MM-DD argument, or a tool error naming it. */
function dateArg(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  const s = (scalarText(v) ?? '').trim();
  if (!DATE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`)))
    throw new ToolError({ error: `${name}: must be a date YYYY-MM-DD, got ${JSON.stringify(v)}`, param: name });
  return s;
}

/** The last day of a pipeline delivery (`2027-Q3` → 2027-09-30, a date as is); null for TBD or unreadable. */
export function completionDate(delivery: string): string | null {
  const q = QUARTER.exec(delivery.trim());
  if (q) return new Date(Date.UTC(Number(q[1]), Number(q[2]) * 3, 0)).toISOString().slice(0, 10);
  return DATE.test(delivery.trim()) ? delivery.trim() : null;
}

/** Deal value in USD (records carry millions). */
const dealUsd = (d: Deal): number | null => (d.value === null ? null : d.value * 1e6);

/** Tool region (us, eu, apac, americas) against a deal's country and region. */
function inRegion(d: Deal, region: unknown): boolean {
  switch (region) {
    case undefined:
      return true;
    case 'us':
      return d.country === 'US';
    case 'eu':
      return d.region === 'Europe';
    case 'apac':
      return d.region === 'Asia Pacific';
    case 'americas':
      return d.region === 'North America' || d.region === 'Latin America';
    default:
      return false;
  }
}

/**
 * Buyer, seller and deal type read as the REST transactions endpoint reads them (aliases, one error naming the field).
 */
function dealFilters(args: Record<string, unknown>) {
  const parsed = TransactionsQuery.safeParse({ buyer: args.buyer, seller: args.seller, deal_type: args.deal_type });
  if (!parsed.success) {
    const { param, message } = describeIssue(parsed.error);
    throw new ToolError({ error: `${param}: ${message}`, param });
  }
  const { buyer, seller, deal_type } = parsed.data;
  return { buyer, seller, deal_type };
}

/** list_transactions over every deal: dates reach the oldest records; values in USD. */
export function listTransactions(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const from = dateArg(args, 'date_from');
  const to = dateArg(args, 'date_to');
  const min = args.min_value_usd as number | undefined;
  const max = args.max_value_usd as number | undefined;
  if (min !== undefined && max !== undefined && min > max)
    throw new ToolError({ error: `min_value_usd ${min} is above max_value_usd ${max}`, param: 'min_value_usd' });
  const keep = (d: Deal) => {
    const usd = dealUsd(d);
    return (
      inRegion(d, args.region) &&
      (min === undefined || (usd !== null && usd >= min)) &&
      (max === undefined || (usd !== null && usd <= max)) &&
      (!from || d.date >= from) &&
      (!to || d.date <= to)
    );
  };
  const body = dealsAnswer(env.ctx, env.nowMs, dealFilters(args), {
    limit: (args.limit as number | undefined) ?? 20,
    keep,
    offset: (args.offset as number | undefined) ?? 0,
  });
  return {
    ...body,
    transactions: body.transactions.map((d) => ({ ...d, value_usd: dealUsd(d) })),
    data: body.transactions.map((d) => ({ ...d, value_usd: dealUsd(d) })),
    offset: args.offset ?? 0,
    filters_applied: {
      ...body.filters_applied,
      region: args.region ?? null,
      date_from: from ?? null,
      date_to: to ?? null,
      min_value_usd: min ?? null,
      max_value_usd: max ?? null,
    },
  };
}

/** The tool's news categories (notes §2.12 slugs) → the archive's categories. */
const NEWS_CATEGORY_SLUGS: Record<string, string> = {
  deals: 'M&A',
  'm&a': 'M&A',
  ma: 'M&A',
  construction: 'Construction',
  permits: 'Construction',
  policy: 'Policy',
  technology: 'Technology',
  sustainability: 'Sustainability',
  earnings: 'Earnings',
  expansion: 'Expansion',
  ai: 'AI',
  outages: 'Power',
  power: 'Power',
  industry: 'Industry News',
};

/** get_news over the whole archive (about 5,000 articles); min_relevance reads relevance_score (0–99) as 0–1. */
export function getNews(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const from = dateArg(args, 'date_from');
  const to = dateArg(args, 'date_to');
  let category: string | undefined;
  if (args.category !== undefined) {
    const key = (scalarText(args.category) ?? '').trim().toLowerCase();
    category = Object.hasOwn(NEWS_CATEGORY_SLUGS, key)
      ? NEWS_CATEGORY_SLUGS[key]
      : NEWS_CATEGORIES.find((c) => c.toLowerCase() === key);
    if (!category)
      throw new ToolError({
        error: `category: unknown category ${JSON.stringify(args.category)}`,
        param: 'category',
        valid_categories: [...Object.keys(NEWS_CATEGORY_SLUGS), ...NEWS_CATEGORIES],
      });
  }
  const minRelevance = args.min_relevance as number | undefined;
  const q = (args.query as string | undefined)?.toLowerCase();
  const body = newsAnswer(
    env.ctx,
    env.nowMs,
    { source: args.source as string | undefined },
    {
      limit: (args.limit as number | undefined) ?? 10,
      keep: (a) => {
        const day = a.published_at.slice(0, 10);
        return (
          (!q || a.title.toLowerCase().includes(q) || a.summary.toLowerCase().includes(q)) &&
          (!category || a.category === category) &&
          (!from || day >= from) &&
          (!to || day <= to) &&
          (minRelevance === undefined || a.relevance_score / 100 >= minRelevance)
        );
      },
    },
  );
  return {
    ...body,
    total_matching: body.total,
    filters_applied: {
      query: args.query ?? null,
      category: category ?? null,
      source: args.source ?? null,
      date_from: from ?? null,
      date_to: to ?? null,
      min_relevance: minRelevance ?? null,
    },
  };
}

const COUNTRY = /^[A-Za-z]{2}$/;

/** get_pipeline over every project; expected_completion_before compares quarter ends (2027-Q3 → 2027-09-30). */
export function getPipeline(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  let before: string | undefined;
  if (args.expected_completion_before !== undefined) {
    const raw = (scalarText(args.expected_completion_before) ?? '').trim();
    const d = completionDate(raw);
    if (!d)
      throw new ToolError({
        error: `expected_completion_before: must be a date YYYY-MM-DD or a quarter YYYY-Qn, got ${JSON.stringify(args.expected_completion_before)}`,
        param: 'expected_completion_before',
      });
    before = d;
  }
  const country = args.country as string | undefined;
  if (country !== undefined && !COUNTRY.test(country))
    throw new ToolError({
      error: `country: must be an ISO 3166-1 alpha-2 code such as US, got ${JSON.stringify(country)}`,
      param: 'country',
    });
  const status = args.status as string | undefined;
  const min = args.min_capacity_mw as number | undefined;
  const op = (args.operator as string | undefined)?.toLowerCase();
  const body = pipelineAnswer(
    env.ctx,
    env.nowMs,
    {},
    {
      limit: (args.limit as number | undefined) ?? 20,
      offset: (args.offset as number | undefined) ?? 0,
      keep: (p) => {
        const done = completionDate(p.delivery);
        return (
          (!status || p.status === status) &&
          (!country || p.country === country.toUpperCase()) &&
          (!op || p.company.toLowerCase().includes(op)) &&
          (min === undefined || p.capacity >= min) &&
          (!before || (done !== null && done < before))
        );
      },
    },
  );
  return {
    ...body,
    total_matching: body.total_count,
    offset: args.offset ?? 0,
    filters_applied: {
      status: status ?? null,
      country: country?.toUpperCase() ?? null,
      operator: args.operator ?? null,
      min_capacity_mw: min ?? null,
      expected_completion_before: before ?? null,
    },
  };
}

/** Deals of $1B or more in the last 180 days, over every deal. */
export function hyperscalerDeals(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const floor = Math.max(1e9, (args.min_value_usd as number | undefined) ?? 0);
  const since = dayIso(dayNumber(env.nowMs) - 180);
  const body = dealsAnswer(
    env.ctx,
    env.nowMs,
    { buyer: args.buyer as string | undefined },
    {
      limit: (args.limit as number | undefined) ?? 20,
      keep: (d) =>
        (dealUsd(d) ?? 0) >= floor &&
        (d.category === 'hyperscaler' || d.category === 'ai') &&
        d.date >= since &&
        inRegion(d, args.region),
    },
  );
  return {
    success: true,
    window_days: 180,
    since,
    min_value_usd: floor,
    total: body.total_matching,
    deals: body.transactions.map((d) => ({ ...d, value_usd: dealUsd(d) })),
    ...labels(),
  };
}
