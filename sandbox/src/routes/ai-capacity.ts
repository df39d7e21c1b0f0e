import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { scoringDay } from '../data/markets.js';
import { aiCapacityAnswer } from '../domain/ai-capacity.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.aiCapacityIndex,
    summary: 'Markets ranked by AI-ready deployable MW over a 30, 60 or 90 day horizon (keyless: gated preview)',
    tags: ['DCPI'],
    responses: {
      200: { description: 'Index (keyless callers get banded values and §5.3 markers)' },
      400: { description: 'horizon not 30, 60 or 90, or bad limit', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const day = scoringDay(ctx.clock.nowMs());
      c.header('Cache-Control', 'public, max-age=900, s-maxage=3600');
      c.header('Vary', 'X-API-Key');
      const gated = ctx.presenters.aiCapacityGated(c.get('tier'));
      return c.json(ctx.presenters.aiCapacity(aiCapacityAnswer(ctx, day, query.horizon, query.limit, gated), gated));
    },
  });
}
