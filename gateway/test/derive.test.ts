import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryKey, startTeam, type RunningTeam } from './support/team.js';

/**
 * Issue 25: narrower questions are answered from any team member's wider answer. core's derive
 * index lives in Redis with the answers, so a queue question asked of one replica by one token is
 * answered from another token's wider answer fetched through another replica: X-DCHub-Cache
 * derived, no upstream request. Both ways core derives: `exact` (a Pro key's default: only answers
 * already asked serve) and `widen` (a question that must go out is asked in its widest form).
 */

const QUEUE = '/api/v1/interconnection-queue/refined';

interface QueueBody {
  results: Array<{ iso: string; capacity_mw: number | null }>;
}

describe.each([
  {
    mode: 'exact (the Pro default)',
    env: {},
    // MISO's whole active queue (805 projects, all of them returned: a complete answer).
    wide: `${QUEUE}?iso=MISO&limit=1000`,
    first: 'miss',
    narrow: `${QUEUE}?iso=MISO&min_mw=300&limit=50`,
  },
  {
    mode: 'widen (DCHUB_GATEWAY_DERIVE=widen)',
    env: { DCHUB_GATEWAY_DERIVE: 'widen' },
    // Asked narrowly; the gateway sends PJM's whole queue (limit 1000) and derives this from it.
    wide: `${QUEUE}?iso=PJM&min_mw=100&limit=20`,
    narrow: `${QUEUE}?iso=PJM&min_mw=400&limit=10`,
    // The first question is itself answered from the widened request.
    first: 'derived',
  },
])('derive mode $mode', ({ env, wide, narrow, first }) => {
  let team: RunningTeam;
  beforeAll(async () => {
    team = await startTeam({
      orgKey: canaryKey('derive'),
      tier: 'pro',
      replicas: 2,
      tokens: { first: undefined, second: undefined },
      env,
    });
  }, 60_000);
  afterAll(() => team?.close());

  it("answers a narrower question from another token's wider answer, through another replica", async () => {
    const [r0, r1] = team.replicas;
    const w = await team.ask(r0, 'first', wide);
    expect(w.status).toBe(200);
    expect(w.headers['x-dchub-cache']).toBe(first);
    const sent = team.upstream(QUEUE);
    expect(sent).toBe(1);
    // What went upstream: the wide question (in widen mode, PJM's whole queue, whatever was asked).
    const asked = new URL(team.proxy.seen.find((x) => x.url.startsWith(QUEUE))!.url, 'http://x').searchParams;
    expect(asked.get('limit')).toBe('1000');
    expect(asked.get('min_mw')).toBeNull();
    const n = await team.ask(r1, 'second', narrow);
    expect(n.status).toBe(200);
    expect(n.headers['x-dchub-cache']).toBe('derived');
    expect(team.upstream(QUEUE)).toBe(sent);
    // What it answers is what the question asks for (the filters held on the wider answer).
    const q = new URL(narrow, 'http://x').searchParams;
    const body = JSON.parse(n.body) as QueueBody;
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(Number(q.get('limit')));
    for (const p of body.results) {
      expect(p.iso).toBe(q.get('iso'));
      expect(p.capacity_mw).toBeGreaterThanOrEqual(Number(q.get('min_mw')));
    }
  });

  it('the organisation key appears in no answer and in no output of the replicas', () => {
    expect(team.leaks()).toEqual([]);
  });
});
