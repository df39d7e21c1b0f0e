import { expect } from 'vitest';
import { HTML, gatewayPage, siteScore } from '../shapes.js';
import type { ReplayCase } from '../types.js';

const S = '/api/site-score';
const score = ['score', '33.45', '-112.07'];

export const transportCases: ReplayCase[] = [
  {
    name: 'gateway: an HTML 502 page becomes one line without markup, exit 5',
    source: 'issue 10 (CDN error pages)',
    keyed: true,
    routes: [{ path: S, reply: { status: 502, headers: HTML, body: gatewayPage(502, 'Bad gateway') } }],
    runs: [
      {
        argv: score,
        expect: {
          code: 5,
          stderr: [
            /^dchub: HTTP 502 \(bad gateway\): the service's gateway answered an HTML error page; the service is down or overloaded; try again in a few minutes$/m,
          ],
          notStderr: [/[<>]|cloudflare|Ray ID/i],
        },
      },
    ],
    portable: {
      code: 5,
      argv: score,
      faults: [{ path_prefix: S, kind: 'html_gateway', gateway_status: 502 }],
      stderr: [
        /^dchub: HTTP 502 \(bad gateway\): the service's gateway answered an HTML error page; the service is down or overloaded; try again in a few minutes$/m,
      ],
      notStderr: [/[<>]|cloudflare|Ray ID/i],
      stdout: [/^$/],
    },
  },
  {
    name: 'gateway: an HTML 524 (origin timeout) page, exit 5',
    source: 'issue 10 (CDN error pages)',
    keyed: true,
    routes: [{ path: S, reply: { status: 524, headers: HTML, body: gatewayPage(524, 'A timeout occurred') } }],
    runs: [
      {
        argv: score,
        expect: {
          code: 5,
          stderr: [
            /^dchub: HTTP 524 \(the service took too long to answer\): the service's gateway answered an HTML error page; .*try again in a few minutes$/m,
          ],
          notStderr: [/[<>]/],
        },
      },
    ],
    portable: {
      code: 5,
      argv: ['queue', '--iso', 'PJM'],
      faults: [{ path_prefix: '/api/v1/interconnection-queue', kind: 'html_gateway', gateway_status: 524 }],
      stderr: [
        /^dchub: HTTP 524 \(the service took too long to answer\): the service's gateway answered an HTML error page; .*try again in a few minutes$/m,
      ],
      notStderr: [/[<>]|cloudflare/i],
    },
  },
  {
    name: 'gateway: an HTML page with a 200 (a captive or login page) says to check the base URL, exit 5',
    source: 'issue 10',
    routes: [
      {
        path: S,
        reply: {
          headers: HTML,
          body: '<html><head><title>Sign in</title></head><body><form>Wi-Fi login</form></body></html>',
        },
      },
    ],
    runs: [
      {
        argv: score,
        expect: {
          code: 5,
          stderr: [
            /^dchub: \/api\/site-score: HTTP 200: the service's gateway answered an HTML error page; check the base URL/m,
          ],
          notStderr: [/[<>]/],
        },
      },
    ],
  },
  {
    name: 'gateway: an empty 200 body, exit 5 in one line',
    source: 'issue 10 (malformed answers)',
    routes: [{ path: S, reply: { body: '' } }],
    runs: [{ argv: score, expect: { code: 5, stderr: [/^dchub: \/api\/site-score answered an empty body$/m] } }],
  },
  {
    name: 'rate limit: the token bucket’s 429 with Retry-After 3600 fails at once, exit 4, reset time given',
    source: 'notes §1.4, §1.5 (rate_limit_exceeded)',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          status: 429,
          headers: { 'Retry-After': '3600' },
          body: { error: 'rate_limit_exceeded', message: 'Too many requests. Retry after 3600s.', retry_after: 3600 },
        },
      },
    ],
    runs: [
      {
        argv: score,
        expect: {
          code: 4,
          stderr: [/^dchub: Too many requests\. Retry after 3600s; resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m],
        },
      },
    ],
    // Fails at once: the suite's 30 s timeout would end a run that waited the hour.
    portable: {
      code: 4,
      argv: score,
      faults: [{ path_prefix: S, kind: 'rate_limit', retry_after: 3600 }],
      stderr: [/^dchub: Too many requests\. Retry after 3600s; resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m],
    },
  },
  {
    name: 'rate limit: the per-minute tier limiter (retry_after_seconds 60 in the body only), exit 4 at once',
    source: 'notes §1.4 (rate_limited)',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          status: 429,
          body: {
            success: false,
            error: 'rate_limited',
            message: 'Rate limit exceeded (60/min for free tier).',
            tier: 'free',
            limit_per_minute: 60,
            retry_after_seconds: 60,
            upgrade_url: 'https://dchub.cloud/pricing',
          },
        },
      },
    ],
    runs: [
      {
        argv: score,
        expect: { code: 4, stderr: [/^dchub: Rate limit exceeded \(60\/min for free tier\); resets at /m] },
      },
    ],
  },
  {
    name: 'rate limit: the anomaly soft-block (retry_after 3600), exit 4',
    source: 'notes §1.4 (@protect_data anomaly)',
    routes: [
      {
        path: S,
        reply: {
          status: 429,
          body: {
            error: 'rate_limit_exceeded',
            message: 'Unusual activity detected. Please slow down.',
            retry_after: 3600,
          },
        },
      },
    ],
    runs: [
      {
        argv: score,
        expect: { code: 4, stderr: [/^dchub: Unusual activity detected\. Please slow down; resets at /m] },
      },
    ],
  },
  {
    name: 'service: 503 tier_gating_unavailable (gate starting up), exit 5',
    source: 'notes §1.4',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          status: 503,
          body: {
            success: false,
            error: 'tier_gating_unavailable',
            message: 'Authentication system is starting up. Please try again in a moment.',
          },
        },
      },
    ],
    runs: [
      {
        argv: score,
        expect: {
          code: 5,
          stderr: [/^dchub: Authentication system is starting up\. Please try again in a moment\.$/m],
        },
      },
    ],
  },
  {
    name: 'redirect: to another origin while a key is set — refused, nothing sent there, exit 5',
    source: 'issue 10 (the key leaves for another origin)',
    keyed: true,
    otherOrigin: siteScore({ interpretation: 'answered by another origin' }),
    otherOriginUntouched: true,
    routes: [{ path: S, reply: { status: 302, redirect: 'other:/api/site-score' } }],
    runs: [
      {
        argv: score,
        expect: {
          code: 5,
          stderr: [
            /^dchub: http:\/\/127\.0\.0\.1:\d+ redirected to another site \(http:\/\/127\.0\.0\.1:\d+\); the API key was not sent there\. If that is the service's new address, use it as the base URL$/m,
          ],
        },
      },
    ],
    portable: {
      code: 5,
      argv: score,
      faults: [{ path_prefix: S, kind: 'redirect', location: 'other:/', redirect_status: 302 }],
      otherOriginUntouched: true,
      stderr: [
        /^dchub: http:\/\/\S+ redirected to another site \(http:\/\/127\.0\.0\.1:\d+\); the API key was not sent there\. If that is the service's new address, use it as the base URL$/m,
      ],
    },
  },
  {
    name: 'redirect: 308 to another origin without a key is followed',
    source: 'issue 10 (redirects, documented choice)',
    otherOrigin: siteScore({ interpretation: 'answered by another origin' }),
    routes: [{ path: S, reply: { status: 308, redirect: 'other:/api/site-score' } }],
    runs: [{ argv: score, expect: { code: 0, stdout: ['answered by another origin'] } }],
    portable: {
      code: 0,
      argv: score,
      faults: [{ path_prefix: S, kind: 'redirect', location: 'other:/', redirect_status: 308 }],
      stdout: ['answered by another origin'],
    },
  },
  {
    name: 'redirect: 301 on the same origin is followed with the key',
    source: 'issue 10',
    keyed: true,
    routes: [
      { path: S, reply: { status: 301, redirect: 'self:/api/v2/site-score?lat=33.45&lon=-112.07' } },
      {
        path: '/api/v2/site-score',
        reply: { body: siteScore({ interpretation: 'answered after a same-origin redirect' }) },
      },
    ],
    runs: [{ argv: score, expect: { code: 0, stdout: ['answered after a same-origin redirect'] } }],
    // A Pro key gets the full queue, a keyless caller the tease: full rows prove the key went along.
    portable: {
      code: 0,
      argv: ['queue', '--iso', 'ERCOT', '--limit', '3', '--format', 'json'],
      faults: [
        {
          path_prefix: '/api/v1/interconnection-queue',
          kind: 'redirect',
          location: 'self:/',
          redirect_status: 301,
          count: 1,
        },
      ],
      notStderr: [/^dchub: Preview/m],
      json: (o) =>
        expect(o.results.map((r: { capacity_mw: unknown }) => typeof r.capacity_mw)).toEqual([
          'number',
          'number',
          'number',
        ]),
    },
  },
  {
    name: 'ledger: a keyed caller without rate-limit headers is never refused on a guess; warned past the assumed 10',
    source: 'issue 10 (the ledger blocks keyed callers on a guess)',
    keyed: true,
    routes: [{ path: S, reply: { body: siteScore() } }],
    runs: Array.from({ length: 12 }, (_, i) => ({
      argv: ['score', String(30 + i), '-100'],
      expect:
        i < 10
          ? { code: 0, notStderr: [/warning/] }
          : {
              code: 0,
              stderr: [
                /^dchub: warning: more than the assumed 10 calls a day \(free tier\) were used; the service has not stated its limit, so calls continue$/m,
              ],
            },
    })),
  },
  {
    name: 'ledger: a per-minute X-RateLimit-Remaining without a daily limit never counts as the day',
    source: 'notes §1.5 (token bucket Remaining)',
    keyed: true,
    routes: [{ path: S, reply: { headers: { 'X-RateLimit-Remaining': '0' }, body: siteScore() } }],
    runs: [
      { argv: ['score', '31', '-100'], expect: { code: 0 } },
      { argv: ['score', '32', '-100'], expect: { code: 0 } },
      { argv: ['quota', '--format', 'json'], expect: { code: 0, stdout: ['"confirmed": false', '"used": 2'] } },
    ],
  },
  {
    name: 'ledger: a stated daily limit (X-RateLimit-Limit/-Remaining/-Reset) is enforced locally: nothing sent once spent',
    source: 'notes §1.5; sandbox headers',
    keyed: true,
    routes: [
      {
        path: S,
        reply: [
          {
            headers: {
              'X-RateLimit-Limit': '2',
              'X-RateLimit-Remaining': '1',
              'X-RateLimit-Reset': '1795000000',
              'X-RateLimit-Tier': 'starter',
            },
            body: siteScore(),
          },
          {
            headers: {
              'X-RateLimit-Limit': '2',
              'X-RateLimit-Remaining': '0',
              'X-RateLimit-Reset': '1795000000',
              'X-RateLimit-Tier': 'starter',
            },
            body: siteScore(),
          },
        ],
      },
    ],
    runs: [
      { argv: ['score', '31', '-100'], expect: { code: 0 } },
      { argv: ['score', '32', '-100'], expect: { code: 0 } },
      {
        argv: ['score', '33', '-100'],
        expect: { code: 4, stderr: [/^dchub: daily allowance of 2 calls is spent; it resets at /m] },
      },
    ],
  },
];
