import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { scoreSiteAt } from '../domain/sites.js';
import { show } from '../http.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.siteScore,
    summary:
      'Site score of a location (not enveloped; `success` instead of `_entity`). `lng` and `capacity` are accepted as aliases.',
    tags: ['Chain', 'Public'],
    query: ctx.presenters.site.query,
    prepareQuery: ctx.presenters.site.prepareQuery,
    responses: {
      200: { description: 'Site score' },
      400: { description: 'lat or lon missing or out of range', schema: ErrorBody },
      402: { description: 'Real profile: keyless caller past the free site scores (paid preview)' },
    },
    handler: (c, { query }) => {
      const present = ctx.presenters.site;
      const tier = c.get('tier');
      const refused = present.refuse(c, ctx, tier, query);
      return refused ? show(c, refused) : c.json(present.present(scoreSiteAt(ctx.data, query), tier));
    },
  });
}
