import { DEAL_TYPES, ErrorBody, NewsList, NewsQuery, TransactionsQuery, ENDPOINTS } from '@dchub/core';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { dealsAnswer, newsAnswer, pipelineAnswer } from '../domain/feeds.js';
import { show, type SandboxEnv } from '../http.js';
import type { RouteRegistry } from '../registry.js';

const NEWS_ALIASES_DEFAULT = 50;

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  // ---------------------------------------------------------------- news
  const newsHandler =
    (defaultLimit: number) =>
    (c: Context<SandboxEnv>, { query }: { query: z.output<typeof NewsQuery> }) =>
      c.json(newsAnswer(ctx, ctx.clock.nowMs(), query, { limit: query.limit ?? defaultLimit }));
  const newsResponses = {
    200: {
      description: 'News articles, newest first (only those published at or before the current time)',
      schema: NewsList,
    },
    400: { description: 'A parameter is invalid', schema: ErrorBody },
  };
  r.add({
    ...ENDPOINTS.news,
    summary: 'Industry news from 40+ sources, refreshed every 5 minutes (default 10 articles)',
    tags: ['Public'],
    responses: newsResponses,
    handler: newsHandler(10),
  });
  r.add({
    ...ENDPOINTS.newsListing,
    summary: 'Industry news (alias listing; default 50 articles)',
    tags: ['Public'],
    responses: newsResponses,
    handler: newsHandler(NEWS_ALIASES_DEFAULT),
  });

  // ---------------------------------------------------------------- transactions
  const dealsHandler =
    (defaultLimit: number, gatedListing: boolean) =>
    (c: Context<SandboxEnv>, { query }: { query: z.output<typeof TransactionsQuery> }) => {
      const compute = (filtered: boolean, limit?: number) =>
        dealsAnswer(ctx, ctx.clock.nowMs(), filtered ? query : {}, { limit: limit ?? query.limit ?? defaultLimit });
      // The alias listing is freemium; /api/v1/transactions is the gated listing under the real profile.
      return gatedListing
        ? show(c, ctx.presenters.transactions(c, c.get('tier'), query, compute))
        : c.json(compute(true));
    };
  const dealResponses = {
    200: {
      description: 'Transactions, newest first; values in millions USD',
      schema: ctx.presenters.schemas.transactions,
    },
    400: {
      description: `A parameter is invalid (deal_type must be one of ${DEAL_TYPES.join(', ')})`,
      schema: ErrorBody,
    },
  };
  r.add({
    ...ENDPOINTS.transactions,
    summary: 'M&A and investment transactions (default 20)',
    tags: ['Public'],
    responses: dealResponses,
    handler: dealsHandler(20, true),
  });
  r.add({
    ...ENDPOINTS.deals,
    summary: 'M&A and investment transactions (alias listing; default 100)',
    tags: ['Public'],
    responses: dealResponses,
    handler: dealsHandler(100, false),
  });

  // ---------------------------------------------------------------- pipeline
  r.add({
    ...ENDPOINTS.pipeline,
    summary: 'Construction pipeline: facilities under construction or announced',
    tags: ['Public'],
    responses: {
      200: { description: 'Pipeline projects with totals' },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => c.json(pipelineAnswer(ctx, ctx.clock.nowMs(), query, { limit: query.limit ?? 200 })),
  });
}
