import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EnergyPrices,
  ErrorBody,
  FUEL_MIX_ISOS,
  FuelMix,
  GRID_REGION_IDS,
  GridIntelligence,
  GridRegionDetail,
} from '@dchub/core';
import { US_STATES } from '../src/data/geography.js';
import { startSandbox, type RunningSandbox } from '../src/server.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'free=f1,developer=d1,pro=p1,enterprise=e1',
    controls: true,
  });
});
afterAll(() => sb?.close());
beforeEach(async () => {
  await fetch(`${sb.url}/_sandbox/limits`, { method: 'DELETE' });
});

/** `null` calls without a key. */
const call = async (path: string, key: string | null = 'e1') => {
  const res = await fetch(sb.url + path, { headers: key ? { 'X-API-Key': key } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const clock = (body: unknown) =>
  fetch(`${sb.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('GET /api/grid/fuel-mix', () => {
  it('answers every ISO with a mix sorted by share that sums to 100', async () => {
    for (const iso of FUEL_MIX_ISOS) {
      const { status, body } = await call(`/api/grid/fuel-mix?iso=${iso.toLowerCase()}`);
      expect(status).toBe(200);
      const r = FuelMix.parse(body);
      expect(r.iso).toBe(iso);
      const pct = r.fuel_mix.map((f) => f.percentage);
      expect([...pct].sort((a, b) => b - a)).toEqual(pct);
      expect(Math.abs(pct.reduce((s, p) => s + p, 0) - 100)).toBeLessThanOrEqual(0.5);
      const mw = r.fuel_mix.reduce((s, f) => s + (f.mw ?? 0), 0);
      expect(Math.abs(mw - r.total_generation_mw) / r.total_generation_mw).toBeLessThan(0.01);
      expect(r.fuel_mix.length).toBeGreaterThanOrEqual(5);
    }
  });

  it('defaults to ERCOT, accepts ISO-NE, and refuses other ISOs (400 naming iso)', async () => {
    expect(FuelMix.parse((await call('/api/grid/fuel-mix')).body).iso).toBe('ERCOT');
    expect(FuelMix.parse((await call('/api/grid/fuel-mix?iso=ISO-NE')).body).iso).toBe('ISONE');
    const { status, body } = await call('/api/grid/fuel-mix?iso=WECC');
    expect(status).toBe(400);
    ErrorBody.parse(body);
    expect(body.param).toBe('iso');
  });

  it('varies with the hour of the sandbox clock (solar at midday, none at night)', async () => {
    const solar = async () =>
      FuelMix.parse((await call('/api/grid/fuel-mix?iso=CAISO')).body).fuel_mix.find((f) => f.source === 'Solar')!
        .percentage;
    await clock({ set: '2026-11-21T20:00:00Z' }); // 12:00 in California
    const noon = await solar();
    await clock({ set: '2026-11-22T10:00:00Z' }); // 02:00 in California
    const night = await solar();
    expect(noon).toBeGreaterThan(10);
    expect(night).toBe(0);
    await clock({ set: '2026-11-21T12:00:00Z' });
  });
});

describe('GET /api/energy/prices/:state', () => {
  it('answers every US state and DC by code or name, any case', async () => {
    for (const st of US_STATES) {
      for (const key of [st.code.toLowerCase(), encodeURIComponent(st.name.toUpperCase())]) {
        const { status, body } = await call(`/api/energy/prices/${key}`);
        expect(status).toBe(200);
        const r = EnergyPrices.parse(body);
        expect(r.state).toBe(st.code);
        expect(r.industrial_price_cents_kwh).toBe(st.industrialCents);
        expect(r.estimated_monthly_cost_per_mw).toBeCloseTo((st.industrialCents * 1000 * 730) / 100, 2);
        expect(r.price_trend_12mo).toHaveLength(12);
        expect(r.price_trend_12mo[0]).toEqual({ period: r.period, price: r.industrial_price_cents_kwh });
      }
    }
    expect(US_STATES.some((s) => s.code === 'DC')).toBe(true);
  });

  it('is 404 with a JSON error for unknown states', async () => {
    for (const bad of ['ZZ', 'Atlantis', 'Ontario']) {
      const { status, body } = await call(`/api/energy/prices/${bad}`);
      expect(status).toBe(404);
      ErrorBody.parse(body);
    }
  });
});

describe('grid intelligence (spec §2.8, §5.3)', () => {
  it('keyed callers see all 5 regions with every member and a provenance block', async () => {
    const { status, body } = await call('/api/v1/grid-intelligence', 'f1');
    expect(status).toBe(200);
    const r = GridIntelligence.parse(body);
    expect(r.regions.map((x) => x.id)).toEqual([...GRID_REGION_IDS]);
    expect(r.total).toBe(5);
    expect(r._gated).toBeUndefined();
    expect(r.provenance.provenance_version).toBe(1);
    for (const g of r.regions) {
      expect(g.status).toBe('live');
      expect(g.queue_basis).toBe('generation');
      expect(g.large_load_queue_as_of).toMatch(/^\d{4}-\d{2}$/);
      const sum = g.total_queue_gw_sources.reduce((s, x) => s + x.queued_generation_gw, 0);
      expect(Math.abs(sum - g.total_queue_gw)).toBeLessThan(0.2);
    }
    const pjm = r.regions.find((x) => x.id === 'pjm')!;
    const pjmGw = sb.ctx.data.queue.filter((p) => p.iso === 'PJM').reduce((s, p) => s + (p.capacity_mw ?? 0), 0) / 1000;
    expect(pjm.total_queue_gw).toBeCloseTo(pjmGw, 0);
  });

  it('keyless callers get a preview of 3 of 5 regions with the gating markers', async () => {
    const { status, body } = await call('/api/v1/grid-intelligence', null);
    expect(status).toBe(200);
    const r = GridIntelligence.parse(body);
    expect(r.regions).toHaveLength(3);
    expect(r._gated).toBe(true);
    expect(r._preview_only).toBe(true);
    expect(r._required_tier).toBe('IDENTIFIED');
    expect(r._total_available).toBe(5);
    expect(r._hidden_count).toBe(2);
    expect(r._signup_url).toBeTruthy();
    expect(r._upgrade_cta).toBeTruthy();
  });

  it('one region by id: keyed only, 404 for unknown ids', async () => {
    const r = GridRegionDetail.parse((await call('/api/v1/grid-intelligence/miso-spp', 'f1')).body);
    expect(r.region.id).toBe('miso-spp');
    expect(r.region.total_queue_gw_sources.map((s) => s.iso)).toEqual(['MISO', 'SPP']);
    const anon = await call('/api/v1/grid-intelligence/pjm', null);
    expect(anon.status).toBe(401);
    expect(anon.body.auth_instructions).toBeTruthy();
    const missing = await call('/api/v1/grid-intelligence/wecc', 'f1');
    expect(missing.status).toBe(404);
    ErrorBody.parse(missing.body);
  });
});
