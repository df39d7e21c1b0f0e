import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../app.js';
import { SYNTHETIC_NOTICE } from '../labels.js';

const STARTED = Date.now();

export function registerHealth(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get('/api/health', (c) =>
    c.json({
      status: 'healthy',
      timestamp: ctx.clock.now().toISOString(),
      version: 'sandbox-0.1.0',
      uptime_seconds: Math.floor((Date.now() - STARTED) / 1000),
      environment: 'sandbox',
      source: 'synthetic',
      seed: ctx.seed,
      facility_count: ctx.data.infra.facilities.length,
      queue_project_count: ctx.data.queue.length,
      note: SYNTHETIC_NOTICE,
    }),
  );
}
