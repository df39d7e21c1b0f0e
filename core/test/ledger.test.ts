import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DchubClient, NetworkError, QuotaSpentError, SiteScore, fetchMeta } from '../src/index.js';
import { loopback } from './support/loopback.js';

/** A loopback service: `answer` decides each reply (or none, to hang). */
async function service(answer: (u: URL, res: http.ServerResponse) => void) {
  const lb = await loopback((req, res) => answer(new URL(req.url ?? '/', 'http://x'), res));
  return {
    url: lb.url,
    get received() {
      return lb.seen.length;
    },
    close: lb.close,
  };
}

const SCORE = JSON.stringify({
  success: true,
  overall_score: 60,
  interpretation: 'Viable site',
  location: { lat: 1, lon: 1 },
});
let quiet: Awaited<ReturnType<typeof service>>;
let counted: Awaited<ReturnType<typeof service>>;
let capped: Awaited<ReturnType<typeof service>>;
let hung: Awaited<ReturnType<typeof service>>;
let busy: Awaited<ReturnType<typeof service>>;

beforeAll(async () => {
  // The real service on public paths: no X-RateLimit-* headers at all.
  quiet = await service((_u, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(SCORE);
  });
  // States a daily limit of 3 with the calls left, like the sandbox.
  let used = 0;
  counted = await service((_u, res) => {
    used++;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Remaining': String(3 - used),
      'X-RateLimit-Reset': '1790000000',
      'X-RateLimit-Tier': 'starter',
    });
    res.end(SCORE);
  });
  // Answers twice, then says the day is spent.
  let n = 0;
  capped = await service((_u, res) => {
    if (++n <= 2) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(SCORE);
    }
    res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '40000' });
    res.end(
      JSON.stringify({
        error: 'daily_limit_reached',
        message: 'Daily download limit reached for your free plan.',
        resets_at: '2026-11-22T00:00:00Z',
      }),
    );
  });
  hung = await service(() => undefined); // never answers
  busy = await service((_u, res) => {
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
    res.end(JSON.stringify({ error: 'busy' }));
  });
});
afterAll(async () => {
  for (const s of [quiet, counted, capped, hung, busy]) await s?.close();
});

const score = (c: DchubClient, i: number) =>
  c.fetchJson('/api/site-score', SiteScore, new URLSearchParams({ lat: String(10 + i), lon: '1' }));

describe('quota ledger: refuses only on an allowance the service stated', () => {
  it('a keyed caller with no rate-limit headers is never refused on a guess; past the assumed 10 it is warned', async () => {
    const c = new DchubClient({ baseUrl: quiet.url, apiKey: 'a-pro-key-without-headers', retries: 0 });
    const answers = [];
    for (let i = 0; i < 14; i++) answers.push(await score(c, i));
    expect(answers.every((a) => a.data.overall_score === 60)).toBe(true);
    expect(quiet.received).toBe(14);
    expect(answers[9].warnings).toEqual([]);
    expect(answers[10].warnings.join(' ')).toMatch(
      /assumed 10 calls a day .* has not stated its limit, so calls continue/,
    );
    const snap = await c.ledger!.snapshot();
    expect(snap).toMatchObject({ confirmed: false, used: 14 });
  });

  it('a limit stated in headers is enforced locally: nothing is sent once it is spent', async () => {
    const c = new DchubClient({ baseUrl: counted.url, apiKey: 'starter-key', retries: 0 });
    for (let i = 0; i < 3; i++) await score(c, i);
    expect(await c.ledger!.snapshot()).toMatchObject({ confirmed: true, tier: 'starter', limit: 3, remaining: 0 });
    const err = await score(c, 99).catch((e) => e);
    expect(err).toBeInstanceOf(QuotaSpentError);
    expect(counted.received).toBe(3);
  });

  it('a 429 daily_limit_reached makes the allowance known and spent', async () => {
    const c = new DchubClient({ baseUrl: capped.url, apiKey: 'free-key', retries: 2 });
    await score(c, 0);
    await score(c, 1);
    const e = await score(c, 2).catch((x) => x);
    expect(e.daily).toBe(true);
    expect(e.message).toMatch(/resets at 2026-11-22T00:00:00Z/);
    expect(await score(c, 3).catch((x) => x)).toBeInstanceOf(QuotaSpentError);
    expect(capped.received).toBe(3);
    // The last good answer of a call is still served, marked stale, while the day is spent.
    const again = await c.fetchJson('/api/site-score', SiteScore, new URLSearchParams({ lat: '10', lon: '1' }), {
      refresh: true,
    });
    expect(again).toMatchObject({ stale: true, reason: 'daily limit reached' });
    expect(fetchMeta(again.data)?.stale).toBe(true);
  });
});

describe('concurrent calls', () => {
  it('first calls of an assumed tier go out together; each waits at most one timeout', async () => {
    const c = new DchubClient({ baseUrl: hung.url, apiKey: 'some-key', retries: 2, timeoutMs: 600 });
    let arrivedBeforeFirstFailure = -1;
    const calls = [0, 1, 2, 3].map((i) =>
      score(c, i).catch((e) => {
        if (arrivedBeforeFirstFailure < 0) arrivedBeforeFirstFailure = hung.received;
        return e;
      }),
    );
    const errors = await Promise.all(calls);
    expect(arrivedBeforeFirstFailure).toBe(4); // none held back behind a probe call
    for (const e of errors) {
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.timeout).toBe(true);
    }
    expect(hung.received).toBe(4); // a timeout is not retried
    expect(await c.ledger!.snapshot()).toMatchObject({ used: 0 }); // nothing reached the service
  });

  it('retries stop at the one timeout of the call', async () => {
    const c = new DchubClient({ baseUrl: busy.url, retries: 10, timeoutMs: 1500, ledger: false });
    const e = await score(c, 0).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.timeout).toBe(true);
    expect(busy.received).toBeLessThan(4);
  });
});

describe('quota ledger: what makes an allowance known', () => {
  it('whoami’s calls left make it known; a state written by older versions starts out assumed', async () => {
    const { MemoryStore, QuotaLedger } = await import('../src/index.js');
    const store = new MemoryStore();
    const day = new Date().toISOString().slice(0, 10);
    // Older versions marked "confirmed" after any answer, even one without headers: not a statement of the limit.
    await store.set('dchub:quota:old', JSON.stringify({ day, used: 10, limit: 10, tier: 'free', confirmed: true }));
    const old = new QuotaLedger(store, 'old', { tier: 'free' });
    expect(await old.reserveCall()).toMatchObject({ ok: true, warning: expect.stringMatching(/assumed 10 calls/) });
    await old.confirm({ remaining: 0 });
    expect(await old.snapshot()).toMatchObject({ confirmed: true, remaining: 0 });
    expect(await old.reserve()).toBe(false);
  });
});
