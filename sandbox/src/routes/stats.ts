import { ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { platformStatsAnswer } from '../domain/stats.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.stats,
    summary: 'Platform totals: facilities, countries, providers, markets, articles, transactions, capacity MW',
    tags: ['Markets'],
    responses: { 200: { description: 'Totals (legacy `success`/`data` answer)' } },
    handler: (c) => {
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(platformStatsAnswer(ctx));
    },
  });
}
