import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeProxy } from '../../gateway/test/support/hosts.js';
import { startRedis, type TestRedis } from '../../gateway/test/support/redis.js';
import {
  addToken,
  countingProxy,
  startReplicas,
  type CountingProxy,
  type Replica,
} from '../../gateway/test/support/replicas.js';
import { ExcelFixture, PROFILES, call } from './fixture.js';
import { officeStandIn, openPane } from './pane.js';

/**
 * Issue 25: the Excel functions work unchanged against a team gateway (its URL as the service, a
 * gateway token as the key), under the strict model of Excel's runtime (`call` fails on any rule a
 * result breaks), and the pane's Account tab says "via the team gateway" with the token's share.
 * Real redis-server and gateway replica processes (build them first: npx tsc -b core sandbox gateway).
 */
const ORG_KEY = 'xl-gateway-org-pro-00001';
const QUEUE_ARGS = ['ERCOT', 100, null, null, null, null, null, null, 5, null];

describe.each(PROFILES)('Excel against a team gateway (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  let redis: TestRedis;
  let upstream: CountingProxy;
  let replicas: Replica[];
  let tokens: Record<string, string>;

  beforeAll(async () => {
    await fx.start({ seed: 'excel-gateway', keys: { pro: ORG_KEY }, profile });
    redis = await startRedis();
    upstream = await countingProxy(fx.sb.url);
    const env = {
      REDIS_URL: redis.url,
      DCHUB_UPSTREAM_URL: upstream.url,
      DCHUB_UPSTREAM_KEY: ORG_KEY,
      DCHUB_UPSTREAM_TIER: 'pro',
      // The add-in calls from its own origin: the gateway's CORS allow-list names it.
      DCHUB_GATEWAY_CORS_ORIGINS: fx.webUrl,
    };
    tokens = {
      ann: await addToken(env, 'ann', 40),
      bob: await addToken(env, 'bob'),
      pane: await addToken(env, 'pane', 30),
    };
    replicas = await startReplicas(2, env);
  }, 120_000);
  afterAll(async () => {
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    await upstream?.close();
    await redis?.close();
    await fx.stop();
  });

  it('the functions answer as against the service; a second workbook is answered from the gateway', async () => {
    const direct = await fx.harness(ORG_KEY);
    const expected = (await call(direct, 'QUEUE', QUEUE_ARGS)).value as unknown[][];
    expect(expected.length).toBeGreaterThan(1);
    await direct.page.close();

    const ann = await fx.harness(tokens.ann, replicas[0].url);
    expect((await call(ann, 'QUEUE', QUEUE_ARGS)).value).toEqual(expected);
    expect(typeof (await call(ann, 'SITESCORE', [39.04, -77.49, null, null])).value).toBe('number');
    // QUOTA is the token's share left: two upstream requests of 40.
    expect((await call(ann, 'QUOTA', [])).value).toBe(38);
    await ann.page.close();
    const queueAsked = () => upstream.seen.filter((r) => r.url.includes('interconnection-queue')).length;
    expect(queueAsked()).toBe(1);

    const bob = await fx.harness(tokens.bob, replicas[1].url);
    const theirs = (await call(bob, 'QUEUE', QUEUE_ARGS)).value as unknown[][];
    // The same rows, and a closing row saying where they came from when the table tells it.
    expect(theirs.slice(0, expected.length)).toEqual(expected);
    expect(queueAsked()).toBe(1); // the gateway answered bob from what ann's question brought
    await bob.page.close();
  });

  it("the gateway's notice closes the table as a warning row", async () => {
    const notice = 'degraded: the team gateway cannot reach Redis; this replica answers from its memory';
    const degraded = await noticeProxy(replicas[0].url, notice);
    try {
      const h = await fx.harness(tokens.bob, degraded.url);
      const rows = (await call(h, 'QUEUE', ['PJM', 100, null, null, null, null, null, null, 4, null])).value;
      expect((rows as unknown[][]).flat().some((c) => typeof c === 'string' && c.includes(notice))).toBe(true);
      await h.page.close();
    } finally {
      await degraded.close();
    }
  });

  it('the Account tab says "via the team gateway" with the token\'s share left', async () => {
    const officeJs = await officeStandIn();
    const { page } = await openPane(fx, officeJs);
    await page.evaluate(
      ([url, key]) => {
        localStorage.setItem('officeruntime:dchub.baseUrl', url);
        localStorage.setItem('officeruntime:dchub.apiKey', key);
      },
      [replicas[0].url, tokens.pane],
    );
    await openPane(fx, officeJs, page);
    // One call through the gateway (whoami), and the pane's ledger knows it.
    await page.locator('#checkAccount').click();
    await expect
      .poll(() => page.locator('#quotaText').innerText(), { timeout: 15_000 })
      .toMatch(/^via the team gateway: 29 of 30 requests left in your share today \(team: \d+ of \d+\); resets /);
    expect(await page.locator('#tier').innerText()).toBe('Tier: team gateway · token set');
    expect(Number(await page.locator('#quota').getAttribute('max'))).toBe(30);
    await page.close();
  });
});
