import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { findUsState, fuelMix, statePrices } from '../data/energy.js';
import { gridIntelligenceAnswer, gridRegionAnswer, gridRegionsAt } from '../domain/energy.js';
import { SYNTHETIC_NOTICE } from '../labels.js';
import { isKeyless } from '../policy/gating.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.fuelMix,
    summary: 'Real-time generation fuel mix of a US grid operator (5-minute intervals)',
    tags: ['Public'],
    responses: {
      200: { description: 'Fuel mix, sorted by percentage descending; percentages sum to 100' },
      400: { description: 'iso is not one of the supported operators', schema: ErrorBody },
    },
    handler: (c, { query }) => c.json(fuelMix(ctx.seed, query.iso ?? 'ERCOT', ctx.clock.nowMs(), SYNTHETIC_NOTICE)),
  });

  r.add({
    ...ENDPOINTS.energyPrices,
    summary: 'Retail electricity prices of a US state (code or name), with a 12-month trend',
    tags: ['Public'],
    responses: {
      200: {
        description: 'Prices in cents per kWh; estimated_monthly_cost_per_mw = industrial cents × 1000 × 730 / 100',
        schema: ctx.presenters.schemas.energyPrices,
      },
      404: { description: 'Not a US state', schema: ErrorBody },
    },
    handler: (c) => {
      const raw = c.req.param('state') ?? '';
      const st = findUsState(raw);
      if (!st) {
        return c.json(
          {
            success: false,
            error: `Unknown US state: ${JSON.stringify(raw)}. Use a two-letter code or a state name (DC included).`,
            param: 'state',
          },
          404,
        );
      }
      return c.json(ctx.presenters.energyPrices(statePrices(ctx.seed, st, ctx.clock.nowMs(), SYNTHETIC_NOTICE)));
    },
  });

  r.add({
    ...ENDPOINTS.gridIntelligence,
    summary: 'Grid intelligence by region (keyless callers see a preview of 3 of 5 regions)',
    tags: ['Public'],
    responses: { 200: { description: 'Grid regions with provenance' } },
    handler: (c) => c.json(gridIntelligenceAnswer(ctx, ctx.clock.nowMs(), isKeyless(c.get('tier')))),
  });

  r.add({
    ...ENDPOINTS.gridRegion,
    summary: 'One grid-intelligence region (requires a key)',
    requires: 'free',
    responses: {
      200: { description: 'The region' },
      404: { description: 'Unknown region', schema: ErrorBody },
    },
    handler: (c) => {
      const id = (c.req.param('region_id') ?? '').toLowerCase();
      const answer = gridRegionAnswer(ctx, ctx.clock.nowMs(), id);
      if (!answer) {
        return c.json(
          {
            success: false,
            error: `Unknown region: ${JSON.stringify(id)}`,
            available: gridRegionsAt(ctx, ctx.clock.nowMs()).map((x) => x.id),
          },
          404,
        );
      }
      return c.json(answer);
    },
  });
}
