import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../core/src/cli/main.js';
import { SANDBOX_PROFILES } from '../../core/test/support/profiles.js';
import { noticeProxy, startGatewayWorld, type GatewayWorld } from './support/hosts.js';

/**
 * Issue 25, "the hosts know it": the `dchub` CLI works unchanged against a team gateway (its
 * --base-url, the caller's gateway token as the key), says "via the team gateway" in `dchub quota`
 * with the token's share left and the team's, shows the gateway's notice as a warning, and a
 * revoked token gets 401. Real redis-server, real replica processes, the sandbox behind them.
 */
const ORG_KEY = 'hosts-cli-org-pro-key-0001';
const QUEUE = ['queue', '--iso', 'ERCOT', '--min-mw', '100', '--limit', '5'];
const QUEUE_PATH = '/api/v1/interconnection-queue/refined?iso=ERCOT&min_mw=100&limit=5';

describe.each(SANDBOX_PROFILES)('dchub against a team gateway (%s profile)', (profile) => {
  let w: GatewayWorld;

  beforeAll(async () => {
    w = await startGatewayWorld({ profile, orgKey: ORG_KEY, tokens: { ann: 20, bob: 0, eve: 0 } });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  /** The CLI in process, with its own cache directory (one analyst's machine) and token (DCHUB_API_KEY). */
  async function dchub(machine: string, ...args: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      out: (s) => (out += s),
      err: (s) => (err += s),
      env: { DCHUB_CACHE_DIR: path.join(w.dir, machine), DCHUB_API_KEY: w.tokens[machine] },
    });
    return { code, out, err };
  }
  const via = (i: number) => ['--base-url', w.replicas[i].url];

  it("answers a queue question as the service does; another analyst's dchub gets it from the gateway", async () => {
    const ann = await dchub('ann', ...QUEUE, '--format', 'json', ...via(0));
    expect(ann.code, ann.err).toBe(EXIT.ok);
    const direct = await (await fetch(`${w.sb.url}${QUEUE_PATH}`, { headers: { 'X-API-Key': ORG_KEY } })).json();
    const ids = (b: { results: Array<{ queue_id: string }> }) => b.results.map((x) => x.queue_id);
    expect(ids(JSON.parse(ann.out))).toEqual(ids(direct));

    const bob = await dchub('bob', ...QUEUE, '--format', 'json', ...via(1));
    expect(bob.code, bob.err).toBe(EXIT.ok);
    expect(bob.out).toBe(ann.out);
    expect(bob.err).toMatch(/^dchub: from the cache \(\d+ s old\)$/m);
    expect(w.upstream(QUEUE_PATH)).toBe(1);
    for (const r of [ann, bob]) expect(r.out + r.err).not.toMatch(/hosts-cli-org|dchg_/);
  });

  it('dchub quota says "via the team gateway" with the share left and the team\'s, in every format', async () => {
    const table = await dchub('ann', 'quota', ...via(0));
    expect(table.code).toBe(EXIT.ok);
    expect(table.out).toMatch(/^via +share_remaining +share_limit +team_remaining +team_limit +resets_at$/m);
    expect(table.out).toMatch(
      /^via the team gateway: 19 of 20 requests left in your share today \(team: \d+ of \d+\); resets \S+ \S+ UTC$/m,
    );
    expect(table.err).toBe('');

    const csv = await dchub('ann', 'quota', '--format', 'csv', ...via(0));
    expect(csv.out.split('\r\n')[0]).toBe('via,share_remaining,share_limit,team_remaining,team_limit,resets_at');
    expect(csv.out.split('\r\n')[1]).toMatch(/^the team gateway,19,20,\d+,\d+,2026-11-2\dT/);
    expect(csv.err).toMatch(/^dchub: via the team gateway: 19 of 20 requests left in your share today/);

    const json = await dchub('ann', 'quota', '--format', 'json', ...via(0));
    const q = JSON.parse(json.out);
    expect(q).toMatchObject({ viaGateway: true, tier: 'team gateway', limit: 20, remaining: 19, confirmed: true });
    expect(q.gateway).toMatchObject({ shareLimit: 20, shareRemaining: 19, teamLimit: expect.any(Number) });
    expect(q.line).toMatch(/^via the team gateway: 19 of 20/);
    expect(json.err).toMatch(/^dchub: via the team gateway/);

    // Without a share of its own, the team's allowance is the line.
    const bob = await dchub('bob', 'quota', ...via(1));
    expect(bob.out).toMatch(/^via the team gateway: \d+ of \d+ requests left today for the team; resets /m);
  });

  it("the gateway's notice is a warning line of the answer", async () => {
    const notice = 'degraded: the team gateway cannot reach Redis; this replica answers from its memory';
    const degraded = await noticeProxy(w.replicas[0].url, notice);
    try {
      const r = await dchub('ann', 'markets', '--base-url', degraded.url);
      expect(r.code, r.err).toBe(EXIT.ok);
      expect(r.err).toContain(`dchub: warning: ${notice}\n`);
    } finally {
      await degraded.close();
    }
  });

  it('a revoked token gets 401: dchub says so and exits 3, whatever it counted', async () => {
    const before = await dchub('eve', 'news', '--limit', '2', ...via(0));
    expect(before.code, before.err).toBe(EXIT.ok);
    await w.revoke('eve');
    const after = await dchub('eve', 'news', '--limit', '3', ...via(1));
    expect(after.code).toBe(EXIT.auth);
    expect(after.err).toMatch(/team gateway does not know this token/);
    expect(after.err).not.toContain(w.tokens.eve);
    const q = await dchub('eve', 'quota', ...via(1));
    expect(q.out).toMatch(/via the team gateway/);
  });
});
