import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { rankCandidates, rankingCostBound } from '../domain/ranking.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.rankSites,
    summary:
      'Multi-site ranking: hard constraints (fail-closed), signed objective weights, relative (default), absolute or percentile scoring; top_k results (default 3).',
    tags: ['Chain', 'Public'],
    bound: rankingCostBound,
    envelopeErrors: true,
    responses: {
      200: { description: 'ranked_sites envelope' },
      400: {
        description: 'Bad body, or a request over the cost bound (the error names the field and the limit)',
        schema: ErrorBody,
      },
      413: { description: 'Body over 1 MB', schema: ErrorBody },
    },
    handler: (c, { body }) => c.json(rankCandidates(ctx.data, ctx.clock.nowMs(), body)),
  });
}
