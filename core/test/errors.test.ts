import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  AuthError,
  DchubClient,
  GatedPreviewError,
  NetworkError,
  RateLimitError,
  SchemaDriftError,
  ServerError,
  ValidationError,
  fetchMeta,
  queueTable,
  refineQueue,
  siteScore,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e) => e,
  );

describe.each(SANDBOX_PROFILES)('errors through the sandbox (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const PRO = 'errors-pro';
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'errors',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());
  const faults = (rules: unknown[]) =>
    fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rules),
    });
  beforeEach(async () => {
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
  });
  const client = (extra = {}) =>
    new DchubClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro', retries: 0, cache: false, ...extra });

  describe('every error class, through the sandbox fault injection', () => {
    it('500/502/503 → ServerError carrying the server words', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'status', status: 502 }]);
      const e = await fail(siteScore(client(), { lat: 1, lon: 1 }));
      expect(e).toBeInstanceOf(ServerError);
      expect(e.status).toBe(502);
      expect(e.message).toMatch(/Injected 502/);
    });
    it('429 → RateLimitError with Retry-After', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'rate_limit', retry_after: 9 }]);
      const e = await fail(siteScore(client(), { lat: 1, lon: 1 }));
      expect(e).toBeInstanceOf(RateLimitError);
      expect(e.retryAfterSeconds).toBe(9);
    });
    it('GETs are retried with backoff, honouring Retry-After, and then succeed', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'rate_limit', retry_after: 1, count: 1 }]);
      const t0 = performance.now();
      const s = await siteScore(client({ retries: 2 }), { lat: 2, lon: 2 });
      expect(s.success).toBe(true);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    });
    it('connection reset and truncated body → NetworkError', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'reset' }]);
      expect(await fail(siteScore(client(), { lat: 1, lon: 1 }))).toBeInstanceOf(NetworkError);
      await faults([{ path_prefix: '/api/site-score', kind: 'truncate' }]);
      expect(await fail(siteScore(client(), { lat: 1, lon: 1 }))).toBeInstanceOf(NetworkError);
    });
    it('latency past the timeout → NetworkError marked timeout', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'latency', latency_ms: 1500 }]);
      const e = await fail(siteScore(client({ timeoutMs: 300 }), { lat: 1, lon: 1 }));
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.timeout).toBe(true);
    });
    it('malformed JSON and schema drift → SchemaDriftError naming where', async () => {
      await faults([{ path_prefix: '/api/site-score', kind: 'malformed_json' }]);
      expect(await fail(siteScore(client(), { lat: 1, lon: 1 }))).toBeInstanceOf(SchemaDriftError);
      // Drift that leaves the answer unusable (the score itself is gone) fails, naming the path.
      await faults([{ path_prefix: '/api/site-score', kind: 'schema_drift' }]);
      const e = await fail(siteScore(client(), { lat: 3, lon: 3 }));
      expect(e).toBeInstanceOf(SchemaDriftError);
      expect(e.path).toBe('overall_score');
      // Issue 10: drift that can be read around (a count derivable from the rows) is served, and named.
      await faults([{ path_prefix: '/api/v1/interconnection-queue', kind: 'schema_drift' }]);
      const q = await client().fetchJson(
        '/api/v1/interconnection-queue/refined',
        (await import('../src/read/queue.js')).readQueue,
        new URLSearchParams({ iso: 'SPP' }),
      );
      expect(q.data.count_returned).toBe(q.data.results.length);
      expect(q.warnings).toContain('count_returned missing from the answer; counted from the rows');
    });
    it('401 and 400 from the service', async () => {
      expect(await fail(siteScore(client({ apiKey: 'nope-nope' }), { lat: 1, lon: 1 }))).toBeInstanceOf(AuthError);
      const r = await fetch(`${sb.url}/api/site-score?lat=1`, { headers: { 'X-API-Key': PRO } });
      expect(r.status).toBe(400);
    });
  });
});

/** The real service's variants (reference notes), served by a stand-in fetch. */
function variant(status: number, body: unknown, headers: Record<string, string> = {}): typeof fetch {
  return async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
}
const real = (f: typeof fetch) =>
  new DchubClient({ baseUrl: 'https://dchub.example', fetch: f, retries: 0, cache: false, ledger: false });

describe('tolerates the real service variants', () => {
  it('401 invalid_api_key and 403 plan_required', async () => {
    const e401 = await fail(
      siteScore(
        real(
          variant(401, {
            success: false,
            error: 'invalid_api_key',
            message: 'Invalid or inactive API key',
            get_key_url: 'https://dchub.cloud/dashboard.html#api-keys',
          }),
        ),
        { lat: 1, lon: 1 },
      ),
    );
    expect(e401).toBeInstanceOf(AuthError);
    expect(e401.authInstructions).toMatch(/api-keys/);
    const e403 = await fail(
      siteScore(
        real(
          variant(403, {
            success: false,
            error: 'plan_required',
            message: 'This endpoint requires a Pro plan or higher.',
            required_plan: 'pro',
          }),
        ),
        {
          lat: 1,
          lon: 1,
        },
      ),
    );
    expect(e403).toMatchObject({
      status: 403,
      requiredPlan: 'pro',
      message: 'This endpoint requires a Pro plan or higher.',
    });
  });
  it('402 paid preview → GatedPreviewError with how to unlock', async () => {
    const e = await fail(
      siteScore(
        real(
          variant(402, {
            status: 'paid_preview',
            preview: true,
            human_message: 'Site scoring is a paid tool.',
            upgrade_url: 'https://dchub.cloud/pricing',
          }),
        ),
        { lat: 1, lon: 1 },
      ),
    );
    expect(e).toBeInstanceOf(GatedPreviewError);
    expect(e.unlockUrl).toBe('https://dchub.cloud/pricing');
    expect(e.message).toMatch(/Site scoring is a paid tool/);
  });
  it('429 with X-RateLimit headers and resets_at', async () => {
    const e = await fail(
      siteScore(
        real(
          variant(
            429,
            { error: 'daily_limit_reached', resets_at: '2026-11-22T00:00:00Z' },
            { 'Retry-After': '3600', 'X-RateLimit-Remaining': '0' },
          ),
        ),
        { lat: 1, lon: 1 },
      ),
    );
    expect(e).toMatchObject({ retryAfterSeconds: 3600, resetAt: '2026-11-22T00:00:00Z' });
  });
  it('200 with an error envelope is an error', async () => {
    const e = await fail(refineQueue(real(variant(200, { ok: false, _entity: 'error', error: 'no_db' })), {}));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.message).toBe('no_db');
  });
  it('3-row previews with _gated, `lon` and `capacity` spellings', async () => {
    const body = {
      _entity: 'queue_results',
      ok: true,
      count_returned: 1,
      count_total_matching: 4948,
      filters_applied: {
        baseload_only: false,
        fuel_type: null,
        geocoded_only: false,
        iso: null,
        max_fiber_km: null,
        max_ttp_months: null,
        min_mw: null,
        status: 'active',
      },
      results: [{ queue_id: 'CAISO-1402', iso: 'CAISO', lat: 33.99, lon: -114.25, capacity: 3200 }],
      _gated: true,
      _preview_only: true,
      _total_available: 4948,
      _locked_fields: ['capacity_mw'],
      unexpected_new_field: { kept: true },
    };
    const r = await refineQueue(real(variant(200, body)), {});
    expect(r._gated).toBe(true);
    expect((r as Record<string, unknown>).unexpected_new_field).toEqual({ kept: true });
    expect(r.results[0]).toMatchObject({ lng: -114.25, capacity_mw: 3200 });
    const t = queueTable(r);
    expect(t.rows[0][t.columns.indexOf('lng')]).toBe(-114.25);
  });
  it('an _entity outside the declared enumeration still parses as an envelope', async () => {
    const r = await real(variant(200, { _entity: 'queue_change_events', ok: true, events: [] })).getJson(
      '/x',
      (await import('../src/index.js')).Envelope,
    );
    expect(r._entity).toBe('queue_change_events');
    expect(fetchMeta(r)).toBeDefined();
  });
  it('bad arguments never reach the network', async () => {
    let called = 0;
    const c = real(async () => {
      called++;
      return new Response('{}');
    });
    await expect(siteScore(c, { lat: 'x', lon: 1 })).rejects.toBeInstanceOf(ValidationError);
    expect(called).toBe(0);
  });
});
