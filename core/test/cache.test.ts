import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DirectoryStore, defaultCacheDir, fileNameOf } from '../src/node.js';
import {
  DchubClient,
  MemoryStore,
  OfficeRuntimeStore,
  QuotaLedger,
  QuotaSpentError,
  RateLimitError,
  ResponseCache,
  cacheKey,
  fetchMeta,
  news,
  refineQueue,
  siteScore,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('the cache and the ledger against the sandbox (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const PRO = 'cache-pro-key';
  const now = () => sb.ctx.clock.nowMs();
  const control = (p: string, body?: unknown, method = 'POST') =>
    fetch(sb.url + p, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'cache',
      now: '2026-11-21T12:00:00Z',
      keys: `pro=${PRO}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());
  beforeEach(async () => {
    await control('/_sandbox/faults', undefined, 'DELETE');
    await control('/_sandbox/limits', undefined, 'DELETE');
    await control('/_sandbox/clock', { set: '2026-11-21T12:00:00Z' });
  });

  const proClient = (extra: Partial<ConstructorParameters<typeof DchubClient>[0]> = {}) =>
    new DchubClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro', now, retries: 0, ...extra });

  describe('cached answers', () => {
    it('1,000 calls over 200 argument sets, three times, send exactly 200 requests', async () => {
      const client = proClient();
      for (let pass = 0; pass < 3; pass++) {
        const calls = [];
        for (let i = 0; i < 1000; i++) calls.push(siteScore(client, { lat: 30 + (i % 200) * 0.05, lon: -90 }));
        await Promise.all(calls);
      }
      expect(client.requestsSent).toBe(200);
    });

    it('concurrent identical calls share one request', async () => {
      const client = proClient();
      const results = await Promise.all(
        Array.from({ length: 25 }, () => refineQueue(client, { iso: 'SPP', limit: 10 })),
      );
      expect(client.requestsSent).toBe(1);
      expect(new Set(results).size).toBe(1);
    });

    it('keeps answers for the resource lifetime, then revalidates with the ETag (304)', async () => {
      const client = proClient();
      const first = await refineQueue(client, { iso: 'NYISO', limit: 5 });
      expect(fetchMeta(first)).toMatchObject({ fromCache: false, stale: false });
      await control('/_sandbox/clock', { advance_seconds: 6 * 86400 }); // within candidate_ttl_days (7)
      await refineQueue(client, { iso: 'NYISO', limit: 5 });
      expect(client.requestsSent).toBe(1);
      // Past its lifetime (expired here by hand, so the weekly snapshot stays the same) → 304.
      await control('/_sandbox/clock', { set: '2026-11-21T13:00:00Z' });
      const stored = client.cache!.peek(
        cacheKey(client.callerId, client.baseUrl, 'GET', '/api/v1/interconnection-queue/refined?iso=NYISO&limit=5'),
      )!;
      stored.answer.expiresAt = now() - 1;
      const c2 = proClient({ cache: client.cache });
      const again = await refineQueue(c2, { iso: 'NYISO', limit: 5 });
      expect(c2.requestsSent).toBe(1);
      expect(client.cache!.stats.revalidated).toBe(1);
      expect(fetchMeta(again)).toMatchObject({ fromCache: true, stale: false });
    });

    it('serves the last good answer, marked stale with its age, when the service fails', async () => {
      const client = proClient();
      const fresh = await siteScore(client, { lat: 40, lon: -100 });
      await control('/_sandbox/clock', { advance_seconds: 8 * 86400 }); // past the 7-day lifetime
      for (const kind of ['status', 'reset', 'rate_limit'] as const) {
        await control('/_sandbox/faults', [{ path_prefix: '/api/site-score', kind, status: 503, retry_after: 1 }]);
        const r = await client.fetchJson(
          '/api/site-score',
          (await import('../src/index.js')).SiteScore,
          new URLSearchParams({ lat: '40', lon: '-100' }),
        );
        expect(r).toMatchObject({ fromCache: true, stale: true });
        expect(r.ageMs).toBeGreaterThanOrEqual(8 * 86400_000);
        expect(r.reason).toMatch(/service error|offline|rate limited/);
        expect(r.data.overall_score).toBe(fresh.overall_score);
      }
    });

    it('never stores an error, and stores a preview only as a preview for its caller', async () => {
      const client = proClient();
      await control('/_sandbox/faults', [{ path_prefix: '/api/site-score', kind: 'malformed_json' }]);
      await expect(siteScore(client, { lat: 41, lon: -100 })).rejects.toThrow(/malformed JSON/);
      await control('/_sandbox/faults', undefined, 'DELETE');
      expect((await siteScore(client, { lat: 41, lon: -100 })).success).toBe(true);
      expect(client.requestsSent).toBe(2);

      const shared = new ResponseCache();
      const anon = new DchubClient({ baseUrl: sb.url, cache: shared, now, retries: 0 });
      const preview = await refineQueue(anon, { iso: 'MISO' });
      expect(fetchMeta(preview)?.preview).toBe(true);
      const keyed = proClient({ cache: shared });
      const full = await refineQueue(keyed, { iso: 'MISO' });
      expect(full._gated).toBeUndefined();
      expect(full.results.length).toBe(200);
    });
  });

  describe('quota ledger', () => {
    it('reserves before each call and sends nothing once the day is spent; falls back to the cache', async () => {
      const client = new DchubClient({ baseUrl: sb.url, now, retries: 0 }); // keyless: 10 a day
      // The real service scores two sites a day for a keyless caller, then answers 402 (notes §2.15): eight news reads
      // spend the rest.
      const scores = profile === 'real' ? 2 : 10;
      for (let i = 0; i < scores; i++) await siteScore(client, { lat: 35 + i * 0.1, lon: -100 });
      for (let i = scores; i < 10; i++) await news(client, { limit: i });
      expect(await client.ledger!.remaining()).toBe(0);
      if (profile === 'real') {
        // No X-RateLimit-Limit for keyless callers (notes §1.5): the assumed allowance is not refused on;
        // the service's own 429 daily_limit_reached confirms it, and from then on nothing is sent.
        const said = await siteScore(client, { lat: 49, lon: -100 }).catch((e) => e);
        expect(said).toBeInstanceOf(RateLimitError);
        expect(said.message).toMatch(/^Daily download limit reached/);
      }
      const sent = client.requestsSent;
      await expect(siteScore(client, { lat: 50, lon: -100 })).rejects.toBeInstanceOf(QuotaSpentError);
      expect(client.requestsSent).toBe(sent);
      // A known answer is still served, marked stale, once past its lifetime.
      await control('/_sandbox/clock', { advance_seconds: 8 * 3600 }); // same UTC day
      const cached = client.cache!.peek(cacheKey('anon', sb.url, 'GET', '/api/site-score?lat=35&lon=-100'))!;
      cached.answer.expiresAt = now() - 1;
      const r = await client.fetchJson(
        '/api/site-score',
        (await import('../src/index.js')).SiteScore,
        new URLSearchParams({ lat: '35', lon: '-100' }),
      );
      expect(r).toMatchObject({ stale: true, reason: 'daily limit reached' });
      // The next UTC day brings the allowance back.
      await control('/_sandbox/clock', { set: '2026-11-22T00:30:00Z' });
      expect(await client.ledger!.remaining()).toBe(10);
    });

    it('persists across restarts and is corrected by the server headers', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-ledger-'));
      try {
        const store = new DirectoryStore(dir);
        const make = () =>
          new DchubClient({
            baseUrl: sb.url,
            apiKey: PRO,
            now,
            retries: 0,
            ledger: new QuotaLedger(store, 'pro-caller', { tier: 'free', now }),
            cache: new ResponseCache(store),
          });
        const a = make();
        expect(await a.ledger!.remaining()).toBe(10); // what it assumes before hearing from the server
        await siteScore(a, { lat: 33, lon: -97 });
        const snap = await a.ledger!.snapshot();
        expect(snap.limit).toBe(2000);
        expect(snap.tier).toBe('pro');
        expect(snap.remaining).toBe(1999);
        const b = make(); // a restart: same directory
        expect(await b.ledger!.remaining()).toBe(1999);
        await siteScore(b, { lat: 33, lon: -97 }); // cached on disk: no call
        expect(b.requestsSent).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('storage adapters', () => {
    it('memory LRU stays bounded', async () => {
      const m = new MemoryStore(3, 1000);
      for (let i = 0; i < 5; i++) await m.set(`k${i}`, 'x'.repeat(10));
      expect(await m.keys('k')).toEqual(['k2', 'k3', 'k4']);
      await m.set('big', 'y'.repeat(995));
      expect(m.chars).toBeLessThanOrEqual(1000);
    });
    it('OfficeRuntime.storage adapter keeps under its budget', async () => {
      const items = new Map<string, string>();
      const fake = {
        getItem: async (k: string) => items.get(k) ?? null,
        setItem: async (k: string, v: string) => void items.set(k, v),
        removeItem: async (k: string) => void items.delete(k),
      };
      const s = new OfficeRuntimeStore(fake, 1000);
      for (let i = 0; i < 10; i++) await s.set(`dchub:c:${i}`, 'z'.repeat(300));
      const total = [...items.entries()]
        .filter(([k]) => k !== OfficeRuntimeStore.INDEX)
        .reduce((n, [, v]) => n + v.length, 0);
      expect(total).toBeLessThanOrEqual(1000);
      expect(await s.get('dchub:c:9')).toBe('z'.repeat(300));
      expect(await s.get('dchub:c:0')).toBeUndefined();
    });
  });

  describe('cache keys', () => {
    it('name the caller, the service and the request; two services never share an answer', async () => {
      expect(cacheKey('anon', 'https://dchub.cloud/', 'GET', '/api/news?limit=2')).toBe(
        'dchub:c:anon:GET https://dchub.cloud /api/news?limit=2',
      );
      const cache = new ResponseCache();
      const a = new DchubClient({ baseUrl: sb.url, cache, ledger: false, now, retries: 0 });
      await refineQueue(a, { iso: 'SPP', limit: 3 });
      expect(
        cache.peek(cacheKey('anon', sb.url, 'GET', '/api/v1/interconnection-queue/refined?iso=SPP&limit=3')),
      ).toBeDefined();
      // Another service (here: nothing listens there) with the same cache: the first one's answer is not its answer.
      const b = new DchubClient({
        baseUrl: 'http://127.0.0.1:9/',
        cache,
        ledger: false,
        now,
        retries: 0,
        timeoutMs: 2000,
      });
      expect(b.isFresh('/api/v1/interconnection-queue/refined', new URLSearchParams({ iso: 'SPP', limit: '3' }))).toBe(
        false,
      );
      await expect(refineQueue(b, { iso: 'SPP', limit: 3 })).rejects.toMatchObject({ kind: 'network' });
      // The same service spelled with an upper-case scheme and a trailing slash is the same service.
      const same = new DchubClient({
        baseUrl: sb.url.replace('http://', 'HTTP://') + '/',
        cache,
        ledger: false,
        now,
        retries: 0,
      });
      expect(
        same.isFresh('/api/v1/interconnection-queue/refined', new URLSearchParams({ limit: '3', iso: 'SPP' })),
      ).toBe(true);
    });
  });
});

describe('cache keys in files', () => {
  it('long keys get their own file (a fingerprint of the whole key past 180 characters)', async () => {
    const long = (tail: string) =>
      cacheKey(
        'k1x2y3',
        'https://dchub.cloud',
        'GET',
        `/api/v1/interconnection-queue/refined?baseload_only=true&fuel_type=gas%2Cnuclear&geocoded_only=true&iso=ERCOT%2CPJM&limit=50&max_fiber_km=${tail}`,
      );
    const [a, b] = [fileNameOf(long('25')), fileNameOf(long('26'))];
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(180 + 20);
    expect(fileNameOf('dchub:quota:h:anon')).toBe('dchub_3Aquota_3Ah_3Aanon.json');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-keys-'));
    try {
      const store = new DirectoryStore(dir);
      await store.set(long('25'), 'one');
      await store.set(long('26'), 'two');
      expect([await store.get(long('25')), await store.get(long('26'))]).toEqual(['one', 'two']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('default cache directory (platformdirs rules, as the Python API)', () => {
  it('follows XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows', () => {
    expect(defaultCacheDir({}, 'linux', '/home/ann')).toBe('/home/ann/.cache/dchub');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/ann' }, 'linux', '/home/ann')).toBe('/var/cache/ann/dchub');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '  ' }, 'freebsd', '/home/ann')).toBe('/home/ann/.cache/dchub');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' }, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Caches/dchub');
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', 'C:\\Users\\ann')).toBe(
      'C:\\Users\\ann\\AppData\\Local\\dchub\\Cache',
    );
    expect(defaultCacheDir({}, 'win32', 'C:\\Users\\ann')).toBe('C:\\Users\\ann\\AppData\\Local\\dchub\\Cache');
  });
});
