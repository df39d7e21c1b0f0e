import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with `npm run bench`
import { dcpiWorkload, queueWorkload, shuffled, workloadCalls } from '../../scripts/derive-workload.mjs';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT, runCli } from '../src/cli/main.js';
import { QUEUE_PATH } from '../src/queue.js';
import { QueueResult, queueSearchParams, QueueFilters } from '../src/schemas/queue.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/**
 * Issue 14's counting test: a workbook-shaped workload — 200 distinct QUEUE argument sets over the
 * seven ISOs and 40 DCPI cells — through the CLI with one cache directory and a free key is
 * answered with at most 10 requests in all, whatever the order of the calls, and each answer is
 * the service's own answer to that call. On both sandbox profiles (the real one with a Developer key).
 */
describe.each(SANDBOX_PROFILES)('the counting test (%s profile)', (profile) => {
  const ORDERS = [1, 2, 3];
  // A free key; on the real profile, which gives free keys the 3-row queue tease and withholds DCPI
  // numbers below Developer (notes §1.3, §2.6) — previews that answer nothing but themselves — a Developer key.
  const TIER = profile === 'real' ? 'developer' : 'free';
  const KEYS = ORDERS.map((i) => `derive-workload-${TIER}-${i}`);
  const DIRECT_KEY = `derive-workload-direct-${TIER}`;
  const SEED = 'derive-workload';
  const NOW = '2026-11-21T12:00:00Z';

  type Call = { kind: 'queue' | 'dcpi'; args: any; argv: string[] };

  let service: RunningSandbox;
  let reference: RunningSandbox;
  let calls: Call[];
  const expected = new Map<Call, string>();

  beforeAll(async () => {
    // The service the CLI talks to, with its daily limits on (the free tier's is 10 requests).
    service = await startSandbox({
      port: 0,
      profile,
      seed: SEED,
      now: NOW,
      keys: KEYS.map((k) => `${TIER}=${k}`).join(','),
    });
    // The same data and clock, limits off: the direct answer to every call.
    reference = await startSandbox({
      port: 0,
      profile,
      seed: SEED,
      now: NOW,
      keys: `${TIER}=${DIRECT_KEY}`,
      limits: false,
    });
    const get = async (p: string) => (await fetch(reference.url + p, { headers: { 'X-API-Key': DIRECT_KEY } })).json();
    const slugs = (await get('/api/v1/dcpi/scores')).scores.map((r: { market_slug: string }) => r.market_slug);
    calls = workloadCalls(queueWorkload(200, 14), dcpiWorkload(slugs, 40, 14));
    for (const call of calls) {
      if (call.kind === 'queue') {
        const q = queueSearchParams(QueueFilters.parse(call.args)).toString();
        expected.set(call, JSON.stringify(QueueResult.parse(await get(`${QUEUE_PATH}?${q}`))));
      } else {
        expected.set(
          call,
          JSON.stringify({ [call.args.field]: (await get(`/api/v1/dcpi/scores/${call.args.slug}`))[call.args.field] }),
        );
      }
    }
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await reference?.close();
  });

  describe(`a workbook of 200 QUEUE argument sets and 40 DCPI cells with a ${TIER} key`, () => {
    it('the workload is what it says: 200 distinct single-ISO queue sets over all 7 ISOs, 40 distinct markets', () => {
      const queue = calls.filter((c) => c.kind === 'queue');
      expect(new Set(queue.map((c) => c.argv.join(' '))).size).toBe(200);
      expect(new Set(queue.map((c) => c.args.iso)).size).toBe(7);
      expect(new Set(calls.filter((c) => c.kind === 'dcpi').map((c) => c.args.slug)).size).toBe(40);
    });

    it.each(ORDERS)(
      'order %i: every call answered as the service would, with at most 10 requests in all',
      async (order) => {
        const key = KEYS[order - 1];
        const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-workload-'));
        try {
          let derived = 0;
          for (const call of shuffled(calls, order)) {
            let out = '';
            let err = '';
            const code = await runCli(call.argv, {
              out: (s) => (out += s),
              err: (s) => (err += s),
              env: { DCHUB_BASE_URL: service.url, DCHUB_CACHE_DIR: dir, DCHUB_API_KEY: key },
            });
            expect([call.argv.join(' '), code, err]).toEqual([call.argv.join(' '), EXIT.ok, expect.any(String)]);
            expect(JSON.stringify(JSON.parse(out))).toBe(expected.get(call));
            if (/answered locally/.test(err)) derived++;
          }
          const requests = service.ctx.counters.used(service.ctx.clock.nowMs(), `req:key:${key}`);
          console.info(`[order ${order}] ${calls.length} calls, ${requests} requests, ${derived} answered locally`);
          expect(requests).toBeLessThanOrEqual(10);
          expect(derived).toBeGreaterThan(calls.length - 10);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
      240_000,
    );
  });
});
