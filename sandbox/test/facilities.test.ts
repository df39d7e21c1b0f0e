import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody, FacilityDetail, FacilityRow, FacilitySearch, SemanticSearchResult } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '../src/server.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,starter=s1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
});
afterAll(() => sb?.close());
// Keyless callers have 10 requests a day; start every test with fresh counters.
beforeEach(async () => {
  await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
});

const call = async (path: string, key?: string, init: RequestInit = {}) => {
  const res = await fetch(sb.url + path, {
    ...init,
    headers: { 'content-type': 'application/json', ...(key ? { 'X-API-Key': key } : {}), ...(init.headers ?? {}) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const expect400 = async (path: string, param: string, key = 'e1') => {
  const { status, body } = await call(path, key);
  expect(status).toBe(400);
  ErrorBody.parse(body);
  expect(body.param).toBe(param);
  expect(body.error).toMatch(new RegExp(`^${param}:`));
};

describe('GET /api/v1/facilities', () => {
  it('finds the towns users search first: a metro’s facilities sit in its real cities (Ashburn, Santa Clara, Hillsboro)', async () => {
    for (const [town, market] of [
      ['Ashburn', 'northern-virginia'],
      ['Sterling', 'northern-virginia'],
      ['Santa Clara', 'silicon-valley'],
      ['Plano', 'dallas'],
      ['Chandler', 'phoenix'],
    ] as const) {
      const { status, body } = await call(`/api/v1/facilities?q=${encodeURIComponent(town)}&limit=50`, 'p1');
      expect(status).toBe(200);
      const rows = body.data as Array<{ city: string; market: string | null }>;
      expect(rows.length, town).toBeGreaterThan(0);
      expect(
        rows.some((r) => r.city === town && r.market === market),
        town,
      ).toBe(true);
    }
  });

  it('keyed callers get full rows, default limit 25, with count and total_matching', async () => {
    const { status, body } = await call('/api/v1/facilities', 'e1');
    expect(status).toBe(200);
    const r = FacilitySearch.parse(body);
    expect(r.count).toBe(25);
    expect(r.data).toHaveLength(25);
    expect(r.total_matching).toBe(sb.ctx.data.infra.facilities.length);
    for (const row of r.data) FacilityRow.parse(row);
    expect(r._gated).toBeUndefined();
    expect(r.note).toMatch(/synthetic/i);
  });

  it('limit up to 100 is honoured; above 100 or below 1 is a 400 naming limit', async () => {
    const r = FacilitySearch.parse((await call('/api/v1/facilities?limit=100', 'p1')).body);
    expect(r.count).toBe(100);
    await expect400('/api/v1/facilities?limit=101', 'limit');
    await expect400('/api/v1/facilities?limit=0', 'limit');
    await expect400('/api/v1/facilities?limit=abc', 'limit');
  });

  it('searches name, city, operator and market text', async () => {
    const r = FacilitySearch.parse((await call('/api/v1/facilities?q=equinix%20dallas&limit=100', 'e1')).body);
    expect(r.total_matching).toBeGreaterThan(0);
    for (const row of r.data) {
      const text = `${row.name} ${row.city} ${row.provider} ${(row as any).market}`.toLowerCase();
      expect(text).toContain('equinix');
      expect(text).toContain('dallas');
    }
    const byMarket = FacilitySearch.parse(
      (await call('/api/v1/facilities?market=northern-virginia&limit=100', 'e1')).body,
    );
    expect(byMarket.total_matching).toBe(
      sb.ctx.data.infra.facilities.filter((f) => f.market === 'northern-virginia').length,
    );
    const byMarketName = FacilitySearch.parse((await call('/api/v1/facilities?market=Northern%20Virginia', 'e1')).body);
    expect(byMarketName.total_matching).toBe(byMarket.total_matching);
  });

  it('country is an ISO 3166-1 alpha-2 code (any case); other forms are a 400 naming country', async () => {
    const r = FacilitySearch.parse((await call('/api/v1/facilities?country=de&limit=100', 'e1')).body);
    expect(r.total_matching).toBe(sb.ctx.data.infra.facilities.filter((f) => f.country === 'DE').length);
    expect(r.data.every((x) => x.country === 'DE')).toBe(true);
    await expect400('/api/v1/facilities?country=USA', 'country');
    await expect400('/api/v1/facilities?country=Germany', 'country');
    await expect400('/api/v1/facilities?country=1A', 'country');
  });

  it('keyless callers get at most 5 rows with basic fields and the gating markers', async () => {
    const { status, body } = await call('/api/v1/facilities?q=dallas&limit=50');
    expect(status).toBe(200);
    const r = FacilitySearch.parse(body);
    expect(r.count).toBe(5);
    expect(r.data).toHaveLength(5);
    expect(r.total_matching).toBeGreaterThan(5);
    expect(r._gated).toBe(true);
    expect(r._preview_only).toBe(true);
    expect(r._required_tier).toBe('IDENTIFIED');
    expect(r._total_available).toBe(r.total_matching);
    expect(r._hidden_count).toBe(r.total_matching - 5);
    expect(typeof r._signup_url).toBe('string');
    expect(typeof r._upgrade_cta).toBe('string');
    for (const row of r.data) {
      expect(row).not.toHaveProperty('latitude');
      expect(row).not.toHaveProperty('power_mw');
    }
  });
});

describe('GET /api/v1/facilities/detail/:facility_id', () => {
  it('returns the full record to any keyed caller', async () => {
    const id = sb.ctx.data.infra.facilities[10].id;
    const { status, body } = await call(`/api/v1/facilities/detail/${id}`, 'f1');
    expect(status).toBe(200);
    const r = FacilityDetail.parse(body);
    expect(r.data.id).toBe(id);
    expect(r.data.contacts.length).toBeGreaterThan(0);
    expect(r.data.certifications.length).toBeGreaterThan(0);
    expect(r.data.capacity.it_load_mw).toBe(sb.ctx.data.infra.facilities[10].power_mw);
  });

  it('is 401 with auth_instructions without a key', async () => {
    const { status, body } = await call('/api/v1/facilities/detail/1000');
    expect(status).toBe(401);
    expect(ErrorBody.parse(body).auth_instructions).toMatch(/auth\.md$/);
  });

  it('is 400 for a non-integer id and 404 for an unknown one', async () => {
    await expect400('/api/v1/facilities/detail/abc', 'facility_id');
    await expect400('/api/v1/facilities/detail/1.5', 'facility_id');
    const { status, body } = await call('/api/v1/facilities/detail/99999999', 'e1');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'Facility not found', id: 99999999 });
  });
});

describe('POST /api/v1/search/semantic', () => {
  const post = (body: unknown, key?: string) =>
    call('/api/v1/search/semantic', key, { method: 'POST', body: JSON.stringify(body) });

  it('ranks facilities by text similarity, best first, topK default 5', async () => {
    const { status, body } = await post({ query: 'Equinix campus in Dallas' }, 'd1');
    expect(status).toBe(200);
    const r = SemanticSearchResult.parse(body);
    expect(r.topK).toBe(5);
    expect(r.count).toBe(5);
    expect(r.matches[0].provider).toBe('Equinix');
    expect(r.matches[0].city).toBe('Dallas');
    const scores = r.matches.map((m) => m.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const again = SemanticSearchResult.parse((await post({ query: 'Equinix campus in Dallas' }, 'd1')).body);
    expect(again.matches).toEqual(r.matches);
  });

  it('honours topK 1-50 and refuses other values or a missing query (400 naming the field)', async () => {
    const r = SemanticSearchResult.parse((await post({ query: 'frankfurt', topK: 12 }, 'e1')).body);
    expect(r.count).toBe(12);
    for (const [b, param] of [
      [{ query: 'x', topK: 51 }, 'topK'],
      [{ query: 'x', topK: 0 }, 'topK'],
      [{ query: 'x', topK: 2.5 }, 'topK'],
      [{}, 'query'],
      [{ query: '  ' }, 'query'],
    ] as const) {
      const { status, body } = await post(b, 'd1');
      expect(status).toBe(400);
      expect(body.param).toBe(param);
    }
  });

  it('is 401 keyless and 403 plan_required for free and starter keys', async () => {
    const anon = await post({ query: 'dallas' });
    expect(anon.status).toBe(401);
    expect(anon.body.auth_instructions).toBeTruthy();
    const free = await post({ query: 'dallas' }, 'f1');
    expect(free.status).toBe(403);
    expect(free.body.error).toBe('plan_required');
    const starter = await post({ query: 'dallas' }, 's1');
    expect(starter.status).toBe(403);
    expect(starter.body.required_plan).toBe('developer');
  });
});
