#!/usr/bin/env node
import { startSandbox } from './server.js';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${process.env.PORT}`);
  process.exit(2);
}

try {
  const t0 = performance.now();
  const sb = await startSandbox({
    port,
    seed: process.env.DCHUB_SEED,
    now: process.env.DCHUB_SANDBOX_NOW,
    keys: process.env.DCHUB_SANDBOX_KEYS,
    controls: process.env.DCHUB_SANDBOX_CONTROLS === '1',
    limits: process.env.DCHUB_SANDBOX_LIMITS !== 'off',
    profile: (process.env.DCHUB_SANDBOX_PROFILE || 'spec') as 'spec' | 'real',
  });
  const tiers = [...sb.ctx.keys.values()];
  console.log(
    `DC Hub sandbox (synthetic data, seed "${sb.ctx.seed}") listening on ${sb.url} ` +
      `[${sb.ctx.data.queue.length} queue projects, ${tiers.length} configured keys${tiers.length ? `: ${tiers.join(', ')}` : ''}; ready in ${Math.round(performance.now() - t0)} ms]` +
      (sb.ctx.controls ? ' [test controls on: /_sandbox/clock, /_sandbox/faults]' : '') +
      (sb.ctx.enforceLimits ? '' : ' [daily limits OFF]') +
      (sb.ctx.profile === 'real' ? " [profile: real — the real service's shapes and quirks]" : ''),
  );
  const stop = () => void sb.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`sandbox failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
