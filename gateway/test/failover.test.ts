import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replica } from './support/replicas.js';
import { canaryKey, startTeam, type RunningTeam, type Seen } from './support/team.js';

/**
 * Issue 25: kill one replica (SIGKILL) mid-load: the others keep answering. The upstream is slowed
 * (the sandbox's latency fault) so that the killed replica dies holding claims and upstream
 * requests in flight: the survivors' waiters must see its claims lapse and ask themselves.
 */

const MARKETS = '/api/v1/markets';
const QUESTIONS = Array.from({ length: 15 }, (_, i) => `${MARKETS}?limit=${100 + i}`);

let team: RunningTeam;

beforeAll(async () => {
  team = await startTeam({
    orgKey: canaryKey('failover'),
    tier: 'pro',
    replicas: 3,
    tokens: { analyst: undefined },
    sandbox: { controls: true },
  });
  const faults = await fetch(`${team.sb.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ path_prefix: MARKETS, kind: 'latency', latency_ms: 400 }]),
  });
  expect(faults.status).toBe(200);
}, 60_000);

afterAll(() => team?.close());

/** Waits until `done` holds (at most 10 s). */
async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting for the doomed replica to ask upstream');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An answer, or status 0 when the replica could not be reached (it was killed). */
const attempt = (r: Replica, path: string): Promise<Seen & { replica: Replica }> =>
  team.ask(r, 'analyst', path).then(
    (a) => ({ ...a, replica: r }),
    () => ({ status: 0, headers: {}, body: '', replica: r }),
  );

describe('kill one replica mid-load', () => {
  it('every request sent to a surviving replica gets 200, its dead claims lapsing', async () => {
    const [doomed, ...survivors] = team.replicas;
    // The doomed replica asks 15 questions first: it holds their claims, its requests are upstream.
    const held = QUESTIONS.map((q) => attempt(doomed, q));
    await until(() => team.upstream(MARKETS) >= QUESTIONS.length);
    // The survivors are asked the same (they wait on its claims) and 30 others, all at once.
    const others = Array.from({ length: 30 }, (_, i) => `${MARKETS}?limit=${200 + i}`);
    const load = [...QUESTIONS, ...QUESTIONS, ...others].map((q, i) => attempt(survivors[i % 2], q));
    await new Promise((r) => setTimeout(r, 100));
    doomed.kill();
    expect((await Promise.all(held)).map((a) => a.status)).toEqual(Array(QUESTIONS.length).fill(0));
    const answers = await Promise.all(load);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    // After the kill, everything asked of the survivors is answered from the shared cache.
    const after = await Promise.all(QUESTIONS.map((q, i) => attempt(survivors[i % 2], q)));
    expect(after.map((a) => a.status)).toEqual(Array(QUESTIONS.length).fill(200));
    expect(after.every((a) => a.headers['x-dchub-cache'] === 'hit')).toBe(true);
    // A question whose claim died with the replica is asked again once: its waiters see the claim lapse and
    // claim again (core's fetcher), so one survivor asks and the other reads its answer.
    const asked = (q: string) => team.proxy.seen.filter((s) => s.url === q).length;
    for (const q of QUESTIONS) expect(asked(q)).toBe(2);
    for (const q of others) expect(asked(q)).toBe(1);
  });

  it('the organisation key appears in no answer and in no output of the replicas, failures included', async () => {
    const news = '/api/v1/news';
    const kinds = ['status', 'malformed_json', 'truncate', 'reset', 'html_gateway'];
    for (const [i, kind] of kinds.entries()) {
      await fetch(`${team.sb.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ path_prefix: news, kind, status: 503 }]),
      });
      const a = await attempt(team.replicas[1 + (i % 2)], `${news}?limit=${i + 1}`);
      expect(a.status).toBeGreaterThanOrEqual(400);
    }
    expect(await attempt(team.replicas[1], '/api/v1/no-such-path').then((a) => a.status)).toBe(404);
    expect(team.leaks()).toEqual([]);
  });
});
