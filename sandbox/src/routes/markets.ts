import { ErrorBody, MarketList, ENDPOINTS } from '@dchub/core';
import type { Context } from 'hono';
import type { SandboxContext } from '../context.js';
import { resolveMarket } from '../data/market-extras.js';
import {
  marketCompareAnswer,
  marketDetailAnswer,
  marketListAnswer,
  resolveMarketsToCompare,
} from '../domain/markets.js';
import type { SandboxEnv } from '../http.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  const listHandler = (canonical: boolean) => (c: Context<SandboxEnv>) => {
    if (!canonical) c.header('X-Canonical-Path', ENDPOINTS.marketList.path);
    return c.json(marketListAnswer(ctx.data, c.get('tier')));
  };
  const listResponses = { 200: { description: 'Scored markets, rows capped per tier', schema: MarketList } };
  r.add({
    ...ENDPOINTS.marketList,
    summary: 'All scored markets with names, counts, pipeline MW and price per kWh (rows capped per tier)',
    tags: ['Markets'],
    responses: listResponses,
    handler: listHandler(true),
  });
  r.add({
    ...ENDPOINTS.markets,
    summary: 'Tracked markets with summary statistics (same answer as /api/v1/markets/list)',
    tags: ['Markets'],
    responses: listResponses,
    handler: listHandler(false),
  });

  // Declared before /api/v1/markets/:market_name so the literal path wins.
  r.add({
    ...ENDPOINTS.marketCompare,
    summary: 'Side-by-side comparison of 2 to 4 markets',
    tags: ['Markets'],
    responses: {
      200: { description: 'Comparison' },
      400: { description: '`markets` missing or not 2–4 names (code VALIDATION_ERROR)', schema: ErrorBody },
      404: { description: 'Unknown markets, with `available_markets`', schema: ErrorBody },
    },
    errorExtras: { code: 'VALIDATION_ERROR' },
    handler: (c, { query }) => {
      const compared = resolveMarketsToCompare(ctx.data, query.markets);
      if ('unknown' in compared) return c.json(compared.unknown, 404);
      return c.json(marketCompareAnswer(ctx, compared.metros));
    },
  });

  r.add({
    ...ENDPOINTS.market,
    summary: 'One market: stats, top providers, status breakdown, recent facilities',
    tags: ['Markets'],
    responses: {
      200: { description: 'Market details' },
      404: { description: '`{"error":"Market not found","code":"NOT_FOUND"}`', schema: ErrorBody },
    },
    handler: (c) => {
      const res = resolveMarket(c.req.param('market_name') ?? '');
      if (!res) return c.json({ error: 'Market not found', code: 'NOT_FOUND' }, 404);
      return c.json(marketDetailAnswer(ctx, res.metro));
    },
  });
}
