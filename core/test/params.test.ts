import { describe, expect, it } from 'vitest';
import { AuthError, RateLimitError, ServerError, ValidationError, errorFromResponse } from '../src/errors.js';
import { QueueFilters, queueSearchParams, normalizeIso } from '../src/schemas/queue.js';
import { SiteScoreQuery, siteScoreAliases } from '../src/schemas/sites.js';
import { parseParams } from '../src/validate.js';

describe('queue filters', () => {
  it('normalizes ISO spellings and applies defaults', () => {
    const f = parseParams(QueueFilters, { iso: 'pjm; isone,ISO-NE', min_mw: '100' });
    expect(f.iso).toEqual(['PJM', 'ISO-NE']);
    expect(f.min_mw).toBe(100);
    expect(f.status).toBe('active');
    expect(f.limit).toBe(200);
    expect(f.baseload_only).toBe(false);
    expect(normalizeIso('iso ne')).toBe('ISO-NE');
  });
  it('treats Excel blanks (null) as unset', () => {
    const f = parseParams(QueueFilters, { iso: null, min_mw: null, limit: null, baseload_only: null });
    expect(f).toMatchObject({ iso: undefined, min_mw: undefined, limit: 200, baseload_only: false });
  });
  it('names the bad parameter', () => {
    const bad = (input: Record<string, unknown>) => {
      try {
        parseParams(QueueFilters, input);
      } catch (e) {
        return e as ValidationError;
      }
      throw new Error('expected a ValidationError');
    };
    expect(bad({ min_mw: 'lots' }).param).toBe('min_mw');
    expect(bad({ min_mw: -1 }).message).toMatch(/^min_mw: must be at least 0/);
    expect(bad({ iso: 'PJM,FOO' }).message).toMatch(/iso: unknown ISO "FOO"/);
    expect(bad({ limit: 1001 }).param).toBe('limit');
    expect(bad({ limit: 2.5 }).message).toMatch(/whole number/);
    expect(bad({ baseload_only: 'maybe' }).param).toBe('baseload_only');
    expect(bad({ fuel_type: 'gas<script>' }).param).toBe('fuel_type');
  });
  it('builds a canonical query string (same filters, same string)', () => {
    const a = queueSearchParams(parseParams(QueueFilters, { min_mw: 5, iso: 'miso,pjm', limit: 200 })).toString();
    const b = queueSearchParams(parseParams(QueueFilters, { iso: ['MISO', 'PJM'], min_mw: '5' })).toString();
    expect(a).toBe(b);
    expect(a).toBe('iso=MISO%2CPJM&min_mw=5');
  });
});

describe('site score query', () => {
  it('accepts the real service spellings', () => {
    const q = parseParams(SiteScoreQuery, siteScoreAliases({ lat: '39.04', lng: -77.49, capacity: 100 }));
    expect(q).toMatchObject({ lat: 39.04, lon: -77.49, capacity_mw: 100 });
  });
  it('requires lat and lon', () => {
    expect(() => parseParams(SiteScoreQuery, { lon: 1 })).toThrow(/lat: is required/);
    expect(() => parseParams(SiteScoreQuery, { lat: 1, lon: 200 })).toThrow(/lon: must be at most 180/);
  });
});

describe('errorFromResponse', () => {
  it('maps statuses to typed errors with the server words', () => {
    const e400 = errorFromResponse(400, { error: 'min_mw: must be a number', param: 'min_mw' });
    expect(e400).toBeInstanceOf(ValidationError);
    expect((e400 as ValidationError).param).toBe('min_mw');
    expect(e400.message).toBe('min_mw: must be a number');
    const e401 = errorFromResponse(401, {
      error: 'invalid_api_key',
      message: 'Invalid or inactive API key',
      auth_instructions: 'https://x/auth.md',
    });
    expect(e401).toBeInstanceOf(AuthError);
    expect((e401 as AuthError).authInstructions).toBe('https://x/auth.md');
    expect(e401.message).toBe('Invalid or inactive API key');
    const e403 = errorFromResponse(403, { error: 'plan_required', required_plan: 'pro' });
    expect((e403 as AuthError).requiredPlan).toBe('pro');
    const e429 = errorFromResponse(429, { error: 'rate_limit_exceeded' }, new Headers({ 'Retry-After': '30' }));
    expect(e429).toBeInstanceOf(RateLimitError);
    expect((e429 as RateLimitError).retryAfterSeconds).toBe(30);
    expect(errorFromResponse(502, 'Bad Gateway')).toBeInstanceOf(ServerError);
  });
});
