import { ENDPOINTS, VERSION } from '@dchub/core';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { SYNTHETIC_NOTICE } from '../labels.js';
import type { RouteRegistry } from '../registry.js';

const STARTED = Date.now();

export const Health = z.looseObject({
  status: z.enum(['healthy', 'degraded']),
  timestamp: z.string(),
  version: z.string(),
  uptime_seconds: z.number(),
  environment: z.string(),
  source: z.string(),
  facility_count: z.number(),
  note: z.string(),
});

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.health,
    summary: 'Health check',
    tags: ['Public'],
    counted: false,
    responses: { 200: { description: 'Service health', schema: Health } },
    handler: (c) =>
      c.json({
        status: 'healthy',
        timestamp: ctx.clock.now().toISOString(),
        version: `sandbox-${VERSION}`,
        uptime_seconds: Math.floor((Date.now() - STARTED) / 1000),
        environment: 'sandbox',
        source: 'synthetic',
        seed: ctx.seed,
        facility_count: ctx.data.infra.facilities.length,
        queue_project_count: ctx.data.queue.length,
        note: SYNTHETIC_NOTICE,
      }),
  });
}
