import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerHeader } from '../../core/src/cache/relayed.js';
import { relayRequest } from '../../core/src/engine/relay.js';
import { quotaAnswer } from '../../core/src/engine/rpc.js';
import { Session } from '../../core/src/engine/sessions.js';
import { SANDBOX_PROFILES } from '../../core/test/support/profiles.js';
import { startGatewayWorld, type GatewayWorld } from './support/hosts.js';

/**
 * Issue 25: the relay does not count a second time behind a gateway. The Jupyter relay is core's
 * engine relay over a session (its own cache directory and ledger); pointed at a team gateway
 * with a token, it answers unchanged, defers to the gateway's count (it never refuses a call its
 * own count would have refused, nor stops after the gateway's 429), and its quota says so.
 */
const ORG_KEY = 'hosts-relay-org-pro-key-01';

describe.each(SANDBOX_PROFILES)('the Jupyter relay behind a team gateway (%s profile)', (profile) => {
  let w: GatewayWorld;
  let dirs: string[] = [];

  beforeAll(async () => {
    w = await startGatewayWorld({ profile, orgKey: ORG_KEY, tokens: { lab: 0, tiny: 2, other: 0 } });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
    await w?.close();
  });

  /** The relay's session as the server extension opens it (DCHUB_BASE_URL, DCHUB_API_KEY, a cache directory). */
  async function relaySession(token: string, params: Record<string, unknown> = {}): Promise<Session> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-gw-relay-'));
    dirs.push(dir);
    return new Session(
      { cache_dir: dir, env: { DCHUB_BASE_URL: w.replicas[0].url, DCHUB_API_KEY: token }, ...params },
      () => undefined,
    );
  }
  const get = (s: Session, p: string) => {
    const [pathOnly, query] = p.split('?');
    return relayRequest(s, { method: 'GET', path: pathOnly, query }, new AbortController().signal);
  };

  it('answers as the service does, with the facts of the answer and a quota that says "via the team gateway"', async () => {
    const s = await relaySession(w.tokens.lab);
    const first = await get(s, 'api/v1/markets?limit=4');
    expect(first.status).toBe(200);
    const direct = await (
      await fetch(`${w.sb.url}/api/v1/markets?limit=4`, { headers: { 'X-API-Key': ORG_KEY } })
    ).text();
    expect(JSON.parse(first.body)).toEqual(JSON.parse(direct));
    // Another machine's relay asks the same: the gateway's cache answers, and its facts say so with their age.
    const other = await relaySession(w.tokens.other);
    const second = await get(other, 'api/v1/markets?limit=4');
    expect(readAnswerHeader(new Headers(second.headers))).toMatchObject({ fromCache: true, stale: false });
    expect(w.upstream('/api/v1/markets?limit=4')).toBe(1);

    const q = quotaAnswer(await s.ledger.snapshot());
    expect(q).toMatchObject({ via_gateway: true, tier: 'team gateway', gateway: { share_limit: null } });
    expect(q.line).toMatch(/^via the team gateway: \d+ of \d+ requests left today for the team; resets /);
  });

  it('never refuses a call its own count would have refused (a stated tier of 10 calls)', async () => {
    const s = await relaySession(w.tokens.lab, { tier: 'anonymous' });
    const answers = [];
    for (let n = 1; n <= 13; n++) answers.push(await get(s, `api/news?limit=${n}`));
    expect(answers.map((a) => a.status)).toEqual(Array(13).fill(200));
    expect(answers.some((a) => a.body.includes('_relay'))).toBe(false);
    for (let n = 1; n <= 13; n++) expect(w.upstream(`/api/news?limit=${n}`)).toBe(1);
  });

  it("after the gateway's 429 (the token's share spent) it still relays what the gateway holds", async () => {
    // Another analyst asked this earlier: the gateway holds it.
    expect((await get(await relaySession(w.tokens.other), 'api/v1/markets?limit=9')).status).toBe(200);
    const s = await relaySession(w.tokens.tiny);
    expect((await get(s, 'api/v1/markets?limit=1')).status).toBe(200);
    expect((await get(s, 'api/v1/markets?limit=2')).status).toBe(200);
    const spent = await get(s, 'api/v1/markets?limit=3');
    expect(spent.status).toBe(429);
    const body = JSON.parse(spent.body);
    // The gateway's refusal in its words, passed on (the relay's own count refuses in other words).
    expect(body).toMatchObject({ error: 'daily_limit_reached', limit: 2 });
    expect(body.message).toMatch(/daily share of 2 upstream requests of tiny is spent/);
    expect(w.upstream('/api/v1/markets?limit=3')).toBe(0);

    const held = await get(s, 'api/v1/markets?limit=9');
    expect(held.status).toBe(200);
    expect(readAnswerHeader(new Headers(held.headers))).toMatchObject({ fromCache: true });
    const q = quotaAnswer(await s.ledger.snapshot());
    expect(q).toMatchObject({ via_gateway: true, remaining: 0, gateway: { share_limit: 2, share_remaining: 0 } });
    expect(q.line).toMatch(
      /^via the team gateway: 0 of 2 requests left in your share today \(team: \d+ of \d+\); answers the gateway holds still come; resets /,
    );
  });
});
