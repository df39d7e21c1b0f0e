import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import { expectShape, feedsSandbox, rejectsParam } from './support/feeds-sandbox.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('feeds, energy, agent (%s profile)', (profile) => {
  const { client, keyless, raw } = feedsSandbox(profile);

  describe('energy', () => {
    it('fuel mix of an operator (ISO-NE spelling accepted), ERCOT by default', async () => {
      const c = client();
      const m = await core.fuelMix(c, 'iso-ne');
      expect(m).toEqual(await raw('/api/grid/fuel-mix?iso=ISONE'));
      expect(m.iso).toBe('ISONE');
      const t = core.fuelMixTable(m);
      expect(t.columns).toEqual(['source', 'mw', 'percentage']);
      expectShape(t, m.fuel_mix.length, ['mw', 'percentage']);
      expect(t.rows.reduce((s, r) => s + (r[2] as number), 0)).toBeCloseTo(100, 0);
      expect(t.asOf).toBe(m.timestamp);
      expect((await core.fuelMix(c)).iso).toBe('ERCOT');
    });

    it('retail prices of a state, by code or name', async () => {
      const c = client();
      const p = await core.energyPrices(c, 'New York');
      const served = await raw('/api/energy/prices/New%20York');
      if (profile === 'real') {
        // The real service sends the four prices as decimal text ("7.23", notes §2.17): read as numbers.
        const prices = [
          'industrial_price_cents_kwh',
          'commercial_price_cents_kwh',
          'residential_price_cents_kwh',
          'all_sectors_price_cents_kwh',
        ];
        for (const k of prices) {
          expect(served[k]).toMatch(/^\d+\.\d\d$/);
          served[k] = Number(served[k]);
        }
      }
      expect(p).toEqual(served);
      expect(p.state).toBe('NY');
      const t = core.pricesTable(p);
      expect(t.columns).toEqual(['field', 'value']);
      expect(t.rows).toContainEqual(['industrial_price_cents_kwh', p.industrial_price_cents_kwh]);
      expect(t.rows).toContainEqual(['estimated_monthly_cost_per_mw', p.estimated_monthly_cost_per_mw]);
      const trend = t.rows.filter((r) => String(r[0]).startsWith('price_trend_12mo.'));
      expect(trend).toHaveLength(12);
      expect(trend.every((r) => typeof r[1] === 'number')).toBe(true);
      expect((await core.energyPrices(c, 'tx')).state).toBe('TX');
      await expect(core.energyPrices(c, 'Atlantis')).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('grid regions: all five with a key, a flagged preview without', async () => {
      const c = client();
      const g = await core.gridRegions(c);
      expect(g).toEqual(await raw('/api/v1/grid-intelligence'));
      expect(g._gated).toBeUndefined();
      const t = core.gridRegionsTable(g);
      expect(t.columns).toEqual([...core.GRID_REGION_COLUMNS]);
      expectShape(t, 5, ['total_queue_gw', 'large_load_queue_gw', 'corridor_count']);
      expect(t.rows.map((r) => r[0])).toEqual([...core.GRID_REGION_IDS]);
      expect(t.note).toBeUndefined();

      const preview = await core.gridRegions(keyless());
      expect(preview._gated).toBe(true);
      expect(preview.regions).toHaveLength(core.GRID_REGIONS_KEYLESS);
      expect(core.fetchMeta(preview)?.preview).toBe(true);
      const pt = core.gridRegionsTable(preview);
      expectShape(pt, 3, ['total_queue_gw']);
      expect(pt.note).toMatch(/Showing 3 of 5/);

      const one = await core.gridRegion(c, 'PJM');
      expect(one).toEqual(await raw('/api/v1/grid-intelligence/pjm'));
      expect(one.region.id).toBe('pjm');
      await expect(core.gridRegion(c, 'tva')).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.fuelMix(c, 'TVA'), 'iso');
      await rejectsParam(core.energyPrices(c, '   '), 'state');
      await rejectsParam(core.energyPrices(c, undefined as unknown as string), 'state');
      await rejectsParam(core.gridRegion(c, ''), 'region_id');
      await rejectsParam(core.gridRegion(c, '../stats'), 'region_id');
      expect(c.requestsSent).toBe(0);
    });
  });
});
