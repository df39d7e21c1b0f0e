/** Feed tools over the deals, news and pipeline of the data set (the data behind the REST feeds). */
import { TransactionsQuery, describeIssue } from '@dchub/core';
import { dayIso, dayNumber } from '../../clock.js';
import { dealsAnswer, newsAnswer, pipelineAnswer } from '../../domain/feeds.js';
import { ToolError, labels, lc, mainList, replaceList, type ToolEnv, type ToolResult } from './common.js';

/** A list answer narrowed by the tool's own filters, with offset/limit applied. */
export function narrow(body: Record<string, unknown>, keep: (row: Record<string, unknown>) => boolean, limit: number, offset = 0): ToolResult {
  const key = mainList(body, 'auto');
  if (!key) return body;
  const rows = (body[key] as Array<Record<string, unknown>>).filter((r) => r && typeof r === 'object' && keep(r));
  return { ...replaceList(body, key, rows.slice(offset, offset + limit)), count: Math.min(limit, Math.max(0, rows.length - offset)), total_matching: rows.length };
}

export const field = (r: Record<string, unknown>, ...names: string[]) => {
  for (const n of names) if (r[n] !== undefined && r[n] !== null) return r[n];
  return undefined;
};
/** Deal value in USD from whichever field the record carries (`value_usd`, or `value` in millions). */
export const dealUsd = (r: Record<string, unknown>): number | null => {
  const usd = field(r, 'value_usd', 'deal_value_usd');
  if (typeof usd === 'number') return usd;
  const v = field(r, 'value', 'value_millions', 'deal_value');
  return typeof v === 'number' ? (v < 1e6 ? v * 1e6 : v) : null;
};
/** Tool region (us, eu, apac, americas) against a record's country/region labels. */
export const inRegion = (r: Record<string, unknown>, region: unknown): boolean => {
  if (!region) return true;
  const label = lc(field(r, 'region'));
  const country = String(field(r, 'country') ?? '').toUpperCase();
  switch (region) {
    case 'us': return country === 'US' || country === 'USA' || label === 'us';
    case 'eu': return /europe|\beu\b|emea/.test(label);
    case 'apac': return /asia|pacific|apac/.test(label);
    case 'americas': return /america/.test(label) || ['US', 'CA', 'MX', 'BR', 'CL', 'AR', 'CO'].includes(country);
    default: return label === lc(region);
  }
};
export const dateOf = (r: Record<string, unknown>) => String(field(r, 'date', 'published_at', 'published', 'announced_date') ?? '').slice(0, 10);

/** Buyer, seller and deal type read as the REST transactions endpoint reads them (aliases, one error naming the field). */
function transactions(env: ToolEnv, args: Record<string, unknown>): Record<string, unknown> {
  const parsed = TransactionsQuery.safeParse({ buyer: args.buyer, seller: args.seller, deal_type: args.deal_type });
  if (!parsed.success) {
    const { param, message } = describeIssue(parsed.error);
    throw new ToolError({ error: `${param}: ${message}`, param });
  }
  const { buyer, seller, deal_type } = parsed.data;
  return dealsAnswer(env.ctx, env.nowMs, { buyer, seller, deal_type }, 500);
}

export function listTransactions(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const body = transactions(env, args);
  const from = args.date_from as string | undefined;
  const to = args.date_to as string | undefined;
  return narrow(
    body,
    (r) => {
      const usd = dealUsd(r);
      const d = dateOf(r);
      return (
        inRegion(r, args.region) &&
        (args.min_value_usd === undefined || (usd !== null && usd >= (args.min_value_usd as number))) &&
        (args.max_value_usd === undefined || (usd !== null && usd <= (args.max_value_usd as number))) &&
        (!from || d >= from) && (!to || d <= to)
      );
    },
    (args.limit as number | undefined) ?? 20,
    (args.offset as number | undefined) ?? 0,
  );
}

export function getNews(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const body = newsAnswer(env.ctx, env.nowMs, {}, 200);
  const q = lc(args.query);
  return narrow(
    body,
    (r) =>
      (!q || `${lc(r.title)} ${lc(field(r, 'summary', 'description'))}`.includes(q)) &&
      (!args.category || lc(field(r, 'category')).includes(lc(args.category))) &&
      (!args.source || lc(field(r, 'source', 'publisher')).includes(lc(args.source))) &&
      (!args.date_from || dateOf(r) >= String(args.date_from)) &&
      (!args.date_to || dateOf(r) <= String(args.date_to)) &&
      (args.min_relevance === undefined || typeof r.relevance !== 'number' || r.relevance >= (args.min_relevance as number)),
    (args.limit as number | undefined) ?? 10,
  );
}

export function getPipeline(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const body = pipelineAnswer(env.ctx, env.nowMs, {}, 200);
  const before = args.expected_completion_before as string | undefined;
  return narrow(
    body,
    (r) =>
      (!args.status || lc(field(r, 'status')).includes(lc(args.status))) &&
      (!args.country || lc(field(r, 'country')) === lc(args.country)) &&
      (!args.operator || lc(field(r, 'operator', 'company', 'provider')).includes(lc(args.operator))) &&
      (args.min_capacity_mw === undefined || Number(field(r, 'capacity_mw', 'capacity', 'power_mw', 'mw') ?? -1) >= (args.min_capacity_mw as number)) &&
      (!before || String(field(r, 'expected_commissioning', 'expected_completion', 'delivery', 'eta') ?? '9999') <= before),
    (args.limit as number | undefined) ?? 20,
    (args.offset as number | undefined) ?? 0,
  );
}

export function hyperscalerDeals(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const body = transactions(env, { buyer: args.buyer });
  const key = mainList(body, 'auto');
  const rows = key ? (body[key] as Array<Record<string, unknown>>) : [];
  const floor = Math.max(1e9, (args.min_value_usd as number | undefined) ?? 0);
  const since = dayIso(dayNumber(env.nowMs) - 180);
  const deals = rows.filter(
    (r) =>
      (dealUsd(r) ?? 0) >= floor &&
      (r.category === undefined || r.category === 'hyperscaler' || r.category === 'ai') &&
      dateOf(r) >= since &&
      (!args.buyer || lc(field(r, 'buyer')).includes(lc(args.buyer))) &&
      inRegion(r, args.region),
  );
  const limit = (args.limit as number | undefined) ?? 20;
  return { success: true, window_days: 180, since, min_value_usd: floor, total: deals.length, deals: deals.slice(0, limit).map((r) => ({ ...r, value_usd: dealUsd(r) })), ...labels() };
}
