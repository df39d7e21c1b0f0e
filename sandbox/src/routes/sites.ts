import { z } from 'zod';
import { ErrorBody, SITE_SCORE_PATH, SiteScore, SiteScoreQuery, siteScoreAliases } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { scoreSiteAt } from '../domain/sites.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    method: 'get',
    path: SITE_SCORE_PATH,
    summary: 'Site score of a location (not enveloped; `success` instead of `_entity`). `lng` and `capacity` are accepted as aliases.',
    tags: ['Chain', 'Public'],
    query: z.preprocess((q) => siteScoreAliases(q as Record<string, unknown>), SiteScoreQuery),
    responses: {
      200: { description: 'Site score', schema: SiteScore },
      400: { description: 'lat or lon missing or out of range', schema: ErrorBody },
    },
    handler: (c, { query }) => c.json(scoreSiteAt(ctx.data, query)),
  });
}
