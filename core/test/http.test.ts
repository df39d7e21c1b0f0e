import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DchubClient, DchubError, NetworkError, RedirectError, SiteScore, errorFromResponse } from '../src/index.js';
import { EXIT, runCli } from '../src/cli/main.js';
import { loopback } from './support/loopback.js';

const SCORE = {
  success: true,
  overall_score: 71.4,
  interpretation: 'Good site',
  location: { lat: 33.45, lon: -112.07, state: 'AZ' },
};
const KEY = 'redirect-test-secret-key';
const CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), 'dchub-http-'));
let other: Awaited<ReturnType<typeof loopback>>;
let service: Awaited<ReturnType<typeof loopback>>;

beforeAll(async () => {
  other = await loopback((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ ...SCORE, interpretation: 'served by the other origin' }));
  });
  service = await loopback((req, res, body) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const to = (status: number, location: string) => {
      res.writeHead(status, { Location: location });
      res.end();
    };
    if (u.pathname === '/api/site-score' && u.searchParams.get('lat') === '1')
      return to(302, `${other.url}/api/site-score${u.search}`);
    if (u.pathname === '/api/site-score' && u.searchParams.get('lat') === '2')
      return to(301, `/moved/site-score${u.search}`);
    if (u.pathname === '/api/site-score' && u.searchParams.get('lat') === '3')
      return to(302, `/api/site-score?lat=3&hop=${Number(u.searchParams.get('hop') ?? 0) + 1}`);
    if (u.pathname === '/api/v1/rank-sites' && req.method === 'POST' && !u.searchParams.has('moved'))
      return to(307, '/api/v1/rank-sites?moved=1');
    if (u.pathname === '/api/v1/analyze-parcel' && req.method === 'POST') return to(303, '/parcel-result');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (u.pathname === '/moved/site-score') return res.end(JSON.stringify(SCORE));
    if (u.pathname === '/api/v1/rank-sites')
      return res.end(JSON.stringify({ echo: JSON.parse(body || 'null'), method: req.method }));
    if (u.pathname === '/parcel-result') return res.end(JSON.stringify({ method: req.method, body }));
    res.end('{}');
  });
});
afterAll(async () => {
  await other?.close();
  await service?.close();
});

const client = (apiKey?: string) =>
  new DchubClient({ baseUrl: service.url, apiKey, retries: 0, cache: false, ledger: false });
const q = (lat: number) => new URLSearchParams({ lat: String(lat), lon: '1' });

describe('redirects are followed by hand; the key stays on the configured origin', () => {
  it('another origin while a key is set: refused, nothing sent there, the reason names the target', async () => {
    other.seen.length = 0;
    const err = await client(KEY)
      .getJson('/api/site-score', SiteScore, q(1))
      .catch((e) => e);
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.location).toBe(other.url);
    expect(err.message).toMatch(/redirected to another site/);
    expect(err.message).toContain(other.url);
    expect(err.message).not.toContain(KEY);
    expect(other.seen).toHaveLength(0);
  });

  it('another origin without a key: followed (no secret to protect)', async () => {
    other.seen.length = 0;
    const s = await client().getJson('/api/site-score', SiteScore, q(1));
    expect(s.interpretation).toBe('served by the other origin');
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0].key).toBeUndefined();
  });

  it('same origin: followed with the key', async () => {
    service.seen.length = 0;
    const s = await client(KEY).getJson('/api/site-score', SiteScore, q(2));
    expect(s.overall_score).toBe(71.4);
    expect(service.seen.map((x) => x.url)).toEqual(['/api/site-score?lat=2&lon=1', '/moved/site-score?lat=2&lon=1']);
    expect(service.seen.every((x) => x.key === KEY)).toBe(true);
  });

  it('307 keeps the method and body; 303 continues as a GET without the body', async () => {
    const c = client(KEY);
    const r = await c.postJson(
      '/api/v1/rank-sites',
      { candidates: [1, 2] },
      (await import('zod')).z.looseObject({
        echo: (await import('zod')).z.unknown(),
        method: (await import('zod')).z.string(),
      }),
    );
    expect(r).toMatchObject({ method: 'POST', echo: { candidates: [1, 2] } });
    const p = await c.postJson(
      '/api/v1/analyze-parcel',
      { geometry: {} },
      (await import('zod')).z.looseObject({
        method: (await import('zod')).z.string(),
        body: (await import('zod')).z.string(),
      }),
    );
    expect(p).toEqual({ method: 'GET', body: '' });
  });

  it('a redirect loop ends after 5 hops with a clear error', async () => {
    service.seen.length = 0;
    const err = await client(KEY)
      .getJson('/api/site-score', SiteScore, q(3))
      .catch((e) => e);
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.message).toMatch(/more than 5 times/);
    expect(service.seen).toHaveLength(5);
  });

  it('the CLI exits 5 with one line naming the other origin, and never prints the key', async () => {
    let out = '';
    let errText = '';
    const code = await runCli(['score', '1', '1', '--no-cache'], {
      out: (s) => (out += s),
      err: (s) => (errText += s),
      env: { DCHUB_BASE_URL: service.url, DCHUB_API_KEY: KEY, DCHUB_CACHE_DIR: CACHE_DIR },
    });
    expect(code).toBe(EXIT.failure);
    expect(errText).toMatch(/redirected to another site/);
    expect(errText.trim().split('\n')).toHaveLength(1);
    expect(out + errText).not.toContain(KEY);
  });
});

describe('credentials in URLs', () => {
  it('a base URL with user:password@ is refused without echoing the secret', () => {
    const err = (() => {
      try {
        new DchubClient({ baseUrl: 'http://someone:TOPSECRET@127.0.0.1:8787' });
      } catch (e) {
        return e as DchubError;
      }
    })();
    expect(err).toBeInstanceOf(DchubError);
    expect(err!.kind).toBe('validation');
    expect(err!.message).toMatch(/must not contain credentials/);
    expect(err!.message).not.toContain('TOPSECRET');
  });

  it('the CLI refuses it with exit 2 and no secret in any output', async () => {
    let all = '';
    const code = await runCli(['score', '1', '1'], {
      out: (s) => (all += s),
      err: (s) => (all += s),
      env: { DCHUB_BASE_URL: 'https://me:TOPSECRET@dchub.example', DCHUB_CACHE_DIR: CACHE_DIR },
    });
    expect(code).toBe(EXIT.usage);
    expect(all).toMatch(/must not contain credentials/);
    expect(all).not.toContain('TOPSECRET');
  });

  it('userinfo is stripped from every error message, whatever its source', () => {
    expect(new NetworkError('cannot reach http://u:TOPSECRET@h.example/x').message).toBe(
      'cannot reach http://h.example/x',
    );
    const e = errorFromResponse(502, { error: 'upstream https://svc:TOPSECRET@internal.example failed' });
    expect(e.message).not.toContain('TOPSECRET');
    expect(e.message).toContain('https://internal.example');
  });
});

describe('a key an HTTP header cannot carry', () => {
  // Made-up keys: a line break, a tab, a character beyond Latin-1 (what a paste can bring).
  const keys = ['dch_live_7d79fd0b\n60d57bb2', 'dch_live_7d79fd0b\t60d57bb2', 'dch_live_7d79fd0b€60d57bb2'];

  it.each(keys)('%j is refused before any call, without showing it (fetch would quote it)', (key) => {
    const err = (() => {
      try {
        new DchubClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: key });
      } catch (e) {
        return e as DchubError;
      }
    })();
    expect(err).toBeInstanceOf(DchubError);
    expect(err!.kind).toBe('validation');
    expect(err!.message).toMatch(
      /^api_key: contains a (line break|control character|non-ASCII character) — check how it was pasted$/,
    );
    for (const part of ['7d79fd0b', '60d57bb2']) expect(err!.message).not.toContain(part);
  });

  it('spaces around a key are trimmed; anything else outside printable ASCII is refused, each named', () => {
    expect(new DchubClient({ apiKey: '  dch_live_ok \n ' }).hasApiKey).toBe(true);
    expect(() => new DchubClient({ apiKey: 'dch_live_é' })).toThrow(
      'api_key: contains a non-ASCII character — check how it was pasted',
    );
    expect(() => new DchubClient({ apiKey: 'dch_live_a\r\nX-Evil: 1' })).toThrow(
      'api_key: contains a line break — check how it was pasted',
    );
    expect(() => new DchubClient({ apiKey: 'dch_live_a\u0007b' })).toThrow(
      'api_key: contains a control character — check how it was pasted',
    );
  });

  it('the CLI refuses it with exit 2 and no part of the key in any output', async () => {
    let all = '';
    const code = await runCli(['score', '1', '1'], {
      out: (s) => (all += s),
      err: (s) => (all += s),
      env: { DCHUB_BASE_URL: 'http://127.0.0.1:9', DCHUB_API_KEY: keys[0], DCHUB_CACHE_DIR: CACHE_DIR },
    });
    expect(code).toBe(EXIT.usage);
    expect(all).toMatch(/contains a line break — check how it was pasted/);
    for (const part of ['7d79fd0b', '60d57bb2']) expect(all).not.toContain(part);
  });
});

describe('gateway pages and rate limits', () => {
  const CF_524 =
    '<!DOCTYPE html>\n<html><head><title>dchub.cloud | 524: A timeout occurred</title><style>body{}</style></head>\n<body><h1>A timeout occurred</h1><p>The origin web server timed out responding to this request.</p></body></html>';
  let gw: Awaited<ReturnType<typeof loopback>>;
  beforeAll(async () => {
    gw = await loopback((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const lat = u.searchParams.get('lat');
      if (lat === '502' || lat === '524') {
        res.writeHead(Number(lat), { 'Content-Type': 'text/html; charset=UTF-8' });
        return res.end(CF_524);
      }
      if (lat === '200') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<html><body>Please sign in to the hotel Wi-Fi</body></html>');
      }
      if (lat === '429') {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': u.searchParams.get('wait') ?? '3600' });
        return res.end(
          JSON.stringify({
            error: 'rate_limit_exceeded',
            message: 'Too many requests. Retry after 3600s.',
            retry_after: 3600,
          }),
        );
      }
      if (lat === 'cap') {
        res.writeHead(429, { 'Content-Type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: 'daily_limit_reached',
            message: 'Daily download limit reached for your free plan.',
            resets_at: '2026-11-22T00:00:00Z',
          }),
        );
      }
      if (lat === 'short') {
        const n = gw.seen.filter((s) => s.url.includes('lat=short')).length;
        if (n === 1) {
          res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
          return res.end(JSON.stringify({ error: 'rate_limit_exceeded', retry_after: 1 }));
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(SCORE));
    });
  });
  afterAll(() => gw?.close());
  const c = () => new DchubClient({ baseUrl: gw.url, retries: 2, cache: false, ledger: false });
  const score = (lat: string, extra: Record<string, string> = {}) =>
    c()
      .getJson('/api/site-score', SiteScore, new URLSearchParams({ lat, lon: '1', ...extra }))
      .catch((e) => e);

  it('an HTML 502/524 page becomes one line: status, what it was, what to do; no markup', async () => {
    for (const status of ['502', '524']) {
      const e = await score(status);
      expect(e.status).toBe(Number(status));
      expect(e.message).toMatch(
        new RegExp(
          `^HTTP ${status} \\(.+\\): the service's gateway answered an HTML error page; .*try again in a few minutes$`,
        ),
      );
      expect(e.message).not.toMatch(/[<>]/);
      expect(e.message).not.toContain('\n');
    }
  });

  it('an HTML page with a 200 says to check the base URL', async () => {
    const e = await score('200');
    expect(e.message).toMatch(/HTTP 200: the service's gateway answered an HTML error page; check the base URL/);
    expect(e.message).not.toMatch(/[<>]/);
  });

  it('a long Retry-After or a daily cap fails at once with the reset time; no retry is sent', async () => {
    gw.seen.length = 0;
    const e = await score('429');
    expect(e).toMatchObject({ daily: true, retryAfterSeconds: 3600 });
    expect(e.resetAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(e.message).toContain(`resets at ${e.resetAt}`);
    const cap = await score('cap');
    expect(cap).toMatchObject({ daily: true, resetAt: '2026-11-22T00:00:00Z' });
    expect(gw.seen).toHaveLength(2); // one request each, retries: 2 notwithstanding
  });

  it('a short Retry-After is waited out and retried', async () => {
    gw.seen.length = 0;
    const s = await score('short');
    expect(s.overall_score).toBe(71.4);
    expect(gw.seen).toHaveLength(2);
  });
});
