import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryKey, spread, startTeam, type RunningTeam, type Seen } from './support/team.js';

/**
 * Issue 25: the organisation's stated allowance is never exceeded by any number of replicas, and
 * past its daily share a token gets a 429 with the reset time (a share counts upstream requests:
 * answers the gateway already holds are still served). Real replica processes over one
 * redis-server, the sandbox behind a counting proxy; the organisation's key is a canary.
 */

const MARKETS = '/api/v1/markets';
const json = (a: Seen) => JSON.parse(a.body) as Record<string, unknown>;

/** A refusal for a spent allowance or share, as the service words it, with when it resets (in the next day). */
function expectRefusalWithReset(a: Seen): void {
  expect(a.status).toBe(429);
  const body = json(a);
  expect(body.error).toBe('daily_limit_reached');
  const resetsAt = Date.parse(String(body.resets_at));
  expect(resetsAt).toBeGreaterThan(Date.now());
  expect(resetsAt).toBeLessThanOrEqual(Date.now() + 86_400_000 + 60_000);
  expect(Date.parse(a.headers['x-dchub-resets-at'] ?? '')).toBeGreaterThan(Date.now());
}

describe('with 9 calls left as the service stated, 20 distinct questions at once', () => {
  let team: RunningTeam;
  beforeAll(async () => {
    // A free key: 10 requests a day, stated by the sandbox in X-RateLimit-* on every answer.
    team = await startTeam({ orgKey: canaryKey('free'), tier: 'free', replicas: 3, tokens: { analyst: undefined } });
  }, 60_000);
  afterAll(() => team?.close());

  it('the first answer states the allowance: 9 left', async () => {
    const first = await team.ask(team.replicas[0], 'analyst', `${MARKETS}?limit=1`);
    expect(first.status).toBe(200);
    expect(first.headers['x-dchub-team-limit']).toBe('10');
    expect(first.headers['x-dchub-team-remaining']).toBe('9');
    expect(team.upstream()).toBe(1);
  });

  it('give at most 9 upstream requests over three replicas; the rest get 429 with the reset time', async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `${MARKETS}?limit=${i + 2}`);
    const answers = await spread(team, 'analyst', paths);
    const sent = team.upstream() - 1;
    expect(sent).toBeLessThanOrEqual(9);
    const answered = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(answered.length + refused.length).toBe(20);
    // No answer came from elsewhere (no derivation between these): each answer was one of the requests.
    expect(answered.length).toBe(sent);
    expect(refused.length).toBeGreaterThanOrEqual(11);
    for (const a of refused) expectRefusalWithReset(a);
  });

  it('a spent allowance sends nothing more, on any replica, and cached answers are still served', async () => {
    const before = team.upstream();
    const refused = await spread(team, 'analyst', [`${MARKETS}?limit=40`, `${MARKETS}?limit=41`]);
    for (const a of refused) expectRefusalWithReset(a);
    const cached = await team.ask(team.replicas[2], 'analyst', `${MARKETS}?limit=1`);
    expect(cached.status).toBe(200);
    expect(cached.headers['x-dchub-cache']).toBe('hit');
    expect(team.upstream()).toBe(before);
  });

  it('the organisation key appears in no answer and in no output of the replicas', () => {
    expect(team.leaks()).toEqual([]);
    expect(team.proxy.seen.every((s) => s.key === team.env.DCHUB_UPSTREAM_KEY)).toBe(true);
  });
});

describe("a token's daily share", () => {
  let team: RunningTeam;
  beforeAll(async () => {
    team = await startTeam({
      orgKey: canaryKey('pro'),
      tier: 'pro',
      replicas: 2,
      tokens: { runaway: 3, burst: 5, colleague: undefined },
    });
  }, 60_000);
  afterAll(() => team?.close());

  it('counts upstream requests: three answered, the fourth refused with the reset time naming the share', async () => {
    const [r0, r1] = team.replicas;
    const left: string[] = [];
    for (const limit of [11, 12, 13]) {
      const a = await team.ask(limit % 2 ? r0 : r1, 'runaway', `${MARKETS}?limit=${limit}`);
      expect(a.status).toBe(200);
      expect(a.headers['x-dchub-share-limit']).toBe('3');
      left.push(a.headers['x-dchub-share-remaining'] ?? '');
    }
    expect(left).toEqual(['2', '1', '0']);
    const before = team.upstream();
    const refused = await team.ask(r0, 'runaway', `${MARKETS}?limit=14`);
    expectRefusalWithReset(refused);
    expect(String(json(refused).message)).toMatch(/share of 3 upstream requests of runaway/);
    expect(refused.headers['x-dchub-share-remaining']).toBe('0');
    // The other replica refuses too: the share lives in Redis.
    expectRefusalWithReset(await team.ask(r1, 'runaway', `${MARKETS}?limit=14`));
    expect(team.upstream()).toBe(before);
  });

  it('past its share, a question already cached is still answered (its own, or a colleague’s)', async () => {
    const [r0, r1] = team.replicas;
    const own = await team.ask(r1, 'runaway', `${MARKETS}?limit=11`);
    expect(own.status).toBe(200);
    expect(own.headers['x-dchub-cache']).toBe('hit');
    const before = team.upstream();
    const colleagues = await team.ask(r0, 'colleague', `${MARKETS}?limit=15`);
    expect(colleagues.status).toBe(200);
    expect(team.upstream()).toBe(before + 1);
    const shared = await team.ask(r1, 'runaway', `${MARKETS}?limit=15`);
    expect(shared.status).toBe(200);
    expect(shared.headers['x-dchub-cache']).toBe('hit');
    expect(shared.body).toBe(colleagues.body);
    expect(team.upstream()).toBe(before + 1);
  });

  it('holds under concurrency across replicas: 12 distinct questions at once, a share of 5', async () => {
    const before = team.upstream();
    const answers = await spread(
      team,
      'burst',
      Array.from({ length: 12 }, (_, i) => `${MARKETS}?limit=${50 + i}`),
    );
    const answered = answers.filter((a) => a.status === 200);
    expect(team.upstream() - before).toBeLessThanOrEqual(5);
    expect(answered.length).toBe(team.upstream() - before);
    for (const a of answers.filter((x) => x.status !== 200)) expectRefusalWithReset(a);
  });

  it('the organisation key appears in no answer and in no output of the replicas', () => {
    expect(team.leaks()).toEqual([]);
  });
});
