import type { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxEnv } from '../http.js';
import type { SandboxContext } from '../context.js';
import { FaultRules } from '../policy/faults.js';

const ClockMove = z.union([
  z.object({ advance_seconds: z.number().finite() }),
  z.object({ set: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 time') }),
]);

/**
 * Test controls, mounted only with DCHUB_SANDBOX_CONTROLS=1: move the clock (daily recompute,
 * news refresh, daily limits, cache lifetimes), inject faults, reset the daily counters.
 */
export function registerControls(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const readJson = async (req: Request) => {
    try {
      return { ok: true as const, value: (await req.json()) as unknown };
    } catch {
      return { ok: false as const };
    }
  };
  app.get('/_sandbox/clock', (c) => c.json({ now: ctx.clock.now().toISOString() }));
  app.post('/_sandbox/clock', async (c) => {
    const body = await readJson(c.req.raw);
    const move = body.ok ? ClockMove.safeParse(body.value) : undefined;
    if (!move?.success)
      return c.json({ error: 'body: expected {"advance_seconds": N} or {"set": "<ISO 8601 time>"}' }, 400);
    if ('advance_seconds' in move.data) ctx.clock.advance(move.data.advance_seconds);
    else ctx.clock.set(move.data.set);
    return c.json({ now: ctx.clock.now().toISOString() });
  });
  app.get('/_sandbox/faults', (c) => c.json({ rules: ctx.faults.list() }));
  app.post('/_sandbox/faults', async (c) => {
    const body = await readJson(c.req.raw);
    const rules = body.ok ? FaultRules.safeParse(body.value) : undefined;
    if (!rules?.success) {
      const issue = rules?.error.issues[0];
      return c.json(
        {
          error: `faults: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'expected a JSON list of {path_prefix, kind, rate, ...}'}`,
        },
        400,
      );
    }
    ctx.faults.set(rules.data);
    return c.json({ rules: ctx.faults.list() });
  });
  app.delete('/_sandbox/faults', (c) => {
    ctx.faults.clear();
    return c.json({ rules: [] });
  });
  app.delete('/_sandbox/limits', (c) => {
    ctx.counters.reset();
    return c.json({ ok: true });
  });
}
