import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/server.js';

let sb: RunningSandbox;
const KEYS = { free: 'policy-free', developer: 'policy-dev', pro: 'policy-pro' };
const QUEUE = '/api/v1/interconnection-queue/refined';

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'policy',
    now: '2026-11-21T12:00:00Z',
    keys: Object.entries(KEYS)
      .map(([t, k]) => `${t}=${k}`)
      .join(','),
    controls: true,
  });
});
afterAll(() => sb?.close());

const call = (path: string, init: RequestInit & { key?: string; ip?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('X-API-Key', init.key);
  if (init.ip) headers.set('X-Forwarded-For', init.ip);
  return fetch(sb.url + path, { ...init, headers });
};
const control = (path: string, body?: unknown, method = 'POST') =>
  fetch(sb.url + path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('daily request limits (spec §8.1)', () => {
  it('keyless callers get 10 requests a day, then 429 with Retry-After; the next UTC day resets', async () => {
    await control('/_sandbox/limits', undefined, 'DELETE');
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await call('/api/site-score?lat=39&lon=-77', { ip: '10.0.0.1' });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining[0]).toBe('9');
    expect(remaining[9]).toBe('0');
    const over = await call('/api/site-score?lat=39&lon=-77', { ip: '10.0.0.1' });
    expect(over.status).toBe(429);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBe(12 * 3600); // clock at 12:00 UTC: 12 h to midnight
    expect(await over.json()).toMatchObject({ error: 'daily_limit_reached', tier: 'anonymous', limit: 10 });
    // Another keyless caller has its own allowance.
    expect((await call('/api/site-score?lat=39&lon=-77', { ip: '10.0.0.2' })).status).toBe(200);
    // Health is not counted.
    expect((await call('/api/health', { ip: '10.0.0.1' })).status).toBe(200);
    await control('/_sandbox/clock', { advance_seconds: retry });
    expect((await call('/api/site-score?lat=39&lon=-77', { ip: '10.0.0.1' })).status).toBe(200);
    await control('/_sandbox/clock', { set: '2026-11-21T12:00:00Z' });
  });

  it('keyed tiers have their own allowance', async () => {
    await control('/_sandbox/limits', undefined, 'DELETE');
    const res = await call('/api/site-score?lat=39&lon=-77', { key: KEYS.developer });
    expect(res.headers.get('x-ratelimit-limit')).toBe('500');
    expect(res.headers.get('x-ratelimit-tier')).toBe('developer');
    const pro = await call('/api/site-score?lat=39&lon=-77', { key: KEYS.pro });
    expect(pro.headers.get('x-ratelimit-limit')).toBe('2000');
  });

  it('a bearer key is counted as its own caller, as with X-API-Key', async () => {
    await control('/_sandbox/limits', undefined, 'DELETE');
    const bearer = (key: string) =>
      call('/api/site-score?lat=39&lon=-77', { headers: { Authorization: `Bearer ${key}` } });
    await bearer(KEYS.developer);
    const dev = await bearer(KEYS.developer);
    const pro = await bearer(KEYS.pro);
    expect(dev.headers.get('x-ratelimit-remaining')).toBe('498');
    expect(pro.headers.get('x-ratelimit-remaining')).toBe('1999');
    const same = await call('/api/site-score?lat=39&lon=-77', { key: KEYS.developer });
    expect(same.headers.get('x-ratelimit-remaining')).toBe('497');
  });
});

describe('auth', () => {
  it('unknown keys answer 401 with auth_instructions; Bearer keys work', async () => {
    const res = await call('/api/site-score?lat=1&lon=1', { key: 'who-knows' });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error).toBe('invalid_api_key');
    expect(body.auth_instructions).toBe(`${sb.url}/auth.md`);
    const bearer = await call(`${QUEUE}?limit=5`, { headers: { Authorization: `Bearer ${KEYS.pro}` } });
    expect((await bearer.json()).count_returned).toBe(5);
  });
  it('a claimed key works at once, as the free tier, and claims are idempotent', async () => {
    const claim = async () =>
      (
        await call('/api/v1/keys/claim', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ client_name: 'policy-test' }),
        })
      ).json();
    const first = await claim();
    expect(first).toMatchObject({ ok: true, tier: 'free', reused: false });
    expect(first.api_key).toMatch(/^dch_live_[0-9a-f]{32}$/);
    const again = await claim();
    expect(again).toMatchObject({ api_key: first.api_key, reused: true });
    const res = await call(`${QUEUE}?limit=5`, { key: first.api_key });
    expect(res.headers.get('x-ratelimit-tier')).toBe('free');
    expect((await res.json())._gated).toBeUndefined();
  });
  it('bodies over 1 MB answer 413', async () => {
    const res = await call('/api/v1/keys/claim', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'x'.repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/^body:/);
  });
  it('/auth.md is Markdown', async () => {
    const res = await call('/auth.md');
    expect(res.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(await res.text()).toMatch(/X-API-Key/);
  });
});

describe('gated queue preview for keyless callers (spec §5.3)', () => {
  it('shows 3 rows, withholds numerics and says what is hidden and how to unlock', async () => {
    await control('/_sandbox/limits', undefined, 'DELETE');
    const body = await (await call(`${QUEUE}?iso=ERCOT&min_mw=300&max_ttp_months=40`, { ip: '10.1.0.1' })).json();
    const full = await (await call(`${QUEUE}?iso=ERCOT`, { key: KEYS.free })).json();
    expect(body).toMatchObject({ _gated: true, _preview_only: true, _required_tier: 'IDENTIFIED' });
    expect(body.results).toHaveLength(3);
    expect(body._total_available).toBe(full.count_total_matching); // min_mw and the TTP cut were not applied
    expect(body._hidden_count).toBe(full.count_total_matching - 3);
    expect(body._preview_params_not_applied).toEqual(['limit', 'max_ttp_months', 'min_mw']);
    expect(body._signup_url).toMatch(/keys\/claim/);
    for (const r of body.results) {
      expect(r.capacity_mw).toBeNull();
      expect(r.site_evaluation_handoff).toBeNull();
      if (r.lat !== null) expect(Math.round(r.lat * 100) / 100).toBe(r.lat);
    }
  });
});

describe('test controls', () => {
  it('are absent unless enabled', async () => {
    const plain = await startSandbox({ port: 0, seed: 'policy' });
    try {
      expect((await fetch(`${plain.url}/_sandbox/clock`, { method: 'POST', body: '{}' })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
  it('move the clock and refuse bad moves', async () => {
    const set = await (await control('/_sandbox/clock', { set: '2026-12-01T05:00:00Z' })).json();
    expect(set.now).toMatch(/^2026-12-01T05:00:0\d/);
    const moved = await (await control('/_sandbox/clock', { advance_seconds: 3600 })).json();
    expect(moved.now).toMatch(/^2026-12-01T06:00:0\d/);
    expect((await control('/_sandbox/clock', { set: 'tomorrow' })).status).toBe(400);
    await control('/_sandbox/clock', { set: '2026-11-21T12:00:00Z' });
  });
});

describe('fault injection', () => {
  const path = '/api/site-score?lat=39&lon=-77';
  const withFault = async (rule: Record<string, unknown>, fn: () => Promise<void>) => {
    const res = await control('/_sandbox/faults', [{ path_prefix: '/api/site-score', ...rule }]);
    expect(res.status).toBe(200);
    try {
      await fn();
    } finally {
      await control('/_sandbox/faults', undefined, 'DELETE');
    }
  };
  it('adds latency', async () =>
    withFault({ kind: 'latency', latency_ms: 300 }, async () => {
      const t0 = performance.now();
      expect((await call(path, { key: KEYS.pro })).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    }));
  it('answers 5xx and 429 with Retry-After', async () => {
    await withFault({ kind: 'status', status: 503 }, async () =>
      expect((await call(path, { key: KEYS.pro })).status).toBe(503),
    );
    await withFault({ kind: 'rate_limit', retry_after: 7 }, async () => {
      const res = await call(path, { key: KEYS.pro });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect((await res.json()).error).toBe('rate_limit_exceeded');
    });
  });
  it('resets the connection', async () =>
    withFault({ kind: 'reset' }, async () => {
      await expect(call(path, { key: KEYS.pro })).rejects.toThrow();
    }));
  it('truncates the body', async () =>
    withFault({ kind: 'truncate' }, async () => {
      await expect(call(path, { key: KEYS.pro }).then((r) => r.text())).rejects.toThrow();
    }));
  it('sends malformed JSON', async () =>
    withFault({ kind: 'malformed_json' }, async () => {
      const text = await (await call(path, { key: KEYS.pro })).text();
      expect(() => JSON.parse(text)).toThrow();
    }));
  it('drifts the schema (an extra field, a missing one)', async () =>
    withFault({ kind: 'schema_drift' }, async () => {
      const body = await (await call(path, { key: KEYS.pro })).json();
      expect(body._drift_extra_field).toBeDefined();
      expect(body.overall_score).toBeUndefined();
    }));
  it('applies a rate and a count', async () =>
    withFault({ kind: 'status', status: 500, count: 2 }, async () => {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(path, { key: KEYS.pro })).status);
      expect(statuses).toEqual([500, 500, 200, 200]);
    }));
  it('refuses malformed rules', async () => {
    const res = await control('/_sandbox/faults', [{ path_prefix: 'api', kind: 'explode' }]);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^faults:/);
  });
});
