import { receipts as fetchReceipts } from '../agent.js';
import {
  energyPrices,
  fuelMix as fetchFuelMix,
  gridRegions as fetchGridRegions,
  GRID_REGION_COLUMNS,
} from '../energy.js';
import { searchFacilities } from '../facilities.js';
import {
  DEAL_COLUMNS,
  news as fetchNews,
  NEWS_COLUMNS,
  pipeline as fetchPipeline,
  PIPELINE_COLUMNS,
  transactions,
} from '../feeds.js';
import { FuelMixQuery } from '../schemas/energy.js';
import { parseParams } from '../validate.js';
import { citationOf, recordAnswer, tableAnswer, type NotebookAnswer } from './answer.js';
import { latestTime } from './columns.js';
import { text, type MethodContext } from './context.js';

export const FACILITY_COLUMNS = [
  'id', 'name', 'provider', 'operator', 'city', 'state', 'country', 'market', 'power_mw', 'status', 'latitude', 'longitude', 'v',
  'confidence_badge',
]; // prettier-ignore

/** Errors name the Python API's arguments: the service's `q` is the caller's `query`. */
const renamed = async <T>(p: Promise<T>, names: Record<string, string>): Promise<T> =>
  p.catch((err: unknown) => {
    const param = (err as { param?: unknown }).param;
    if (typeof param === 'string' && names[param] && err instanceof Error) {
      Object.defineProperty(err, 'param', { value: names[param] });
      err.message = err.message.replace(new RegExp(`^${param}:`), `${names[param]}:`);
    }
    throw err;
  });

export async function facilities(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = {
    q: args.query,
    country: args.country,
    limit: args.limit,
    market: args.market,
    state: args.state,
    status: args.status,
  };
  const r = await renamed(searchFacilities(ctx.client, q as Parameters<typeof searchFacilities>[1], ctx.call), {
    q: 'query',
  });
  return tableAnswer(r.data, FACILITY_COLUMNS, r, {
    path: '/api/v1/facilities',
    citation: citationOf(r),
    extra: { total_matching: r.total_matching ?? null },
  });
}

export async function news(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = { limit: args.limit, query: args.query, category: args.category, source: args.source };
  const r = await fetchNews(ctx.client, q as Parameters<typeof fetchNews>[1], ctx.call);
  return tableAnswer(r.articles, NEWS_COLUMNS, r, {
    path: '/api/news',
    citation: citationOf(r),
    asOf: latestTime(r.articles.map((a) => a.published_at)) ?? null,
  });
}

export async function deals(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = { limit: args.limit, deal_type: args.deal_type, year: args.year, buyer: args.buyer, seller: args.seller };
  const r = await transactions(ctx.client, q as Parameters<typeof transactions>[1], ctx.call);
  return tableAnswer(r.transactions, DEAL_COLUMNS, r, {
    path: '/api/v1/transactions',
    citation: citationOf(r),
    note: 'Values in millions USD',
  });
}

export async function pipeline(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = { status: args.status, market: args.market, company: args.company, limit: args.limit };
  const r = await fetchPipeline(ctx.client, q as Parameters<typeof fetchPipeline>[1], ctx.call);
  return tableAnswer(r.data, PIPELINE_COLUMNS, r, {
    path: '/api/v1/pipeline',
    citation: citationOf(r),
    asOf: r.last_updated ?? null,
    note: 'capacity in MW, investment in millions USD',
  });
}

export async function fuelMix(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const iso = parseParams(FuelMixQuery, { iso: args.iso }).iso ?? 'ERCOT';
  const m = await fetchFuelMix(ctx.client, iso, ctx.call);
  return tableAnswer(m.fuel_mix, ['source', 'mw', 'percentage'], m, {
    path: '/api/grid/fuel-mix',
    citation: citationOf(m),
    asOf: m.timestamp ?? null,
    extra: { iso, total_generation_mw: m.total_generation_mw ?? null },
  });
}

/** Retail prices of a US state (cents per kWh); the 12-month trend as one field per period. */
export async function prices(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const state = text(args.state) ?? '';
  const p = await energyPrices(ctx.client, state, ctx.call);
  const { price_trend_12mo: trend, ...rest } = p;
  const flat = {
    ...rest,
    ...(Array.isArray(trend) ? { price_trend_12mo: Object.fromEntries(trend.map((t) => [t.period, t.price])) } : {}),
  };
  return recordAnswer(flat, p, {
    path: `/api/energy/prices/${state.trim()}`,
    citation: citationOf(p),
    extra: { period: (p as { period?: string }).period ?? null },
  });
}

export async function gridRegions(_args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const g = await fetchGridRegions(ctx.client, ctx.call);
  return tableAnswer(g.regions, GRID_REGION_COLUMNS, g, {
    path: '/api/v1/grid-intelligence',
    citation: citationOf(g),
    asOf: latestTime(g.regions.map((r) => r.total_queue_gw_as_of)) ?? null,
    extra: { provenance: g.provenance && typeof g.provenance === 'object' ? g.provenance : null },
  });
}

export async function receipts(_args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const l = await fetchReceipts(ctx.client, ctx.call);
  const rows = l.receipts.map((r) => ({ ...r, api_call_count: r.api_calls.length }));
  return tableAnswer(
    rows,
    ['run_id', 'model_id', 'platform', 'status', 'evaluated_at', 'published_at', 'api_call_count'],
    l,
    {
      path: '/api/v1/receipts',
      citation: citationOf(l),
      asOf: l.as_of ?? null,
    },
  );
}
