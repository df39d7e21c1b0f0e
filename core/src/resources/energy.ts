import { z } from 'zod';
import { readEnergyPrices, readFuelMix } from '../read/energy.js';
import { pathRequest, resource, searchParamsOf } from '../resource.js';
import { EnergyPrices, FuelMix, FuelMixQuery, GridIntelligence, GridRegionDetail } from '../schemas/energy.js';
import { segment } from '../schemas/params.js';
import { latestTime } from '../table.js';
import { parseParams } from '../validate.js';
import { regionArg, textArg } from './segments.js';

export const FUEL_MIX_COLUMNS = ['source', 'mw', 'percentage'] as const;

export const GRID_REGION_COLUMNS = [
  'id', 'iso', 'name', 'total_queue_gw', 'large_load_queue_gw', 'corridor_count', 'status', 'queue_basis', 'key_states',
  'total_queue_gw_as_of', 'total_queue_gw_source', 'total_queue_gw_is_live', 'headline', 'page_url',
] as const; // prettier-ignore

export const ENERGY_ENDPOINTS = {
  /** Generation by fuel of a US grid operator (ERCOT by default). */
  fuelMix: resource(
    { method: 'get', path: '/api/grid/fuel-mix', query: FuelMixQuery, response: FuelMix },
    {
      reader: readFuelMix,
      request: (input, e) => {
        const f = parseParams(FuelMixQuery, input ?? {});
        return { path: e.path, params: searchParamsOf({ iso: f.iso ?? 'ERCOT' }), parsed: f };
      },
      table: { rows: (m) => m.fuel_mix, columns: FUEL_MIX_COLUMNS },
      asOf: (m) => m.timestamp ?? undefined,
      note: (m) =>
        m.total_generation_mw != null
          ? `${m.iso}: ${m.total_generation_mw} MW total generation`
          : `${m.iso}: ${m.note ?? 'shares only (no live totals)'}`,
    },
  ),
  /** Retail prices of a US state (code or name); the 12-month trend a field per period (`price_trend_12mo.2026-09`). */
  energyPrices: resource(
    {
      method: 'get',
      path: '/api/energy/prices/:state',
      params: z.object({ state: segment('US state code or name, any case (TX, texas, DC, New York)') }),
      response: EnergyPrices,
    },
    {
      reader: readEnergyPrices,
      request: pathRequest(textArg),
      record: (p) => {
        const { price_trend_12mo: trend, ...rest } = p;
        const isos = (rest as { isos?: unknown }).isos;
        return {
          ...rest,
          ...(Array.isArray(isos) ? { isos: isos.join(', ') } : {}),
          price_trend_12mo: Object.fromEntries((trend ?? []).map((t) => [t.period, t.price])),
        };
      },
      asOf: (p) => p.period ?? undefined,
      note: () => 'Prices in cents per kWh; estimated_monthly_cost_per_mw in USD',
    },
  ),
  /** The grid regions (keyless answers are a preview flagged `_gated`). */
  gridIntelligence: resource(
    { method: 'get', path: '/api/v1/grid-intelligence', response: GridIntelligence },
    {
      table: {
        rows: (g) => g.regions.map((r) => ({ ...r, key_states: r.key_states.join(', ') })),
        columns: GRID_REGION_COLUMNS,
      },
      asOf: (g) => latestTime(g.regions.map((r) => r.total_queue_gw_as_of)),
      note: (g) =>
        g._gated
          ? (g._upgrade_cta ?? `Preview: ${g.regions.length} of ${g._total_available ?? '?'} regions`)
          : undefined,
    },
  ),
  /** One region (requires a key). */
  gridRegion: resource(
    {
      method: 'get',
      path: '/api/v1/grid-intelligence/:region_id',
      params: z.object({ region_id: segment('ercot, pjm, miso-spp, caiso or nyiso-isone') }),
      response: GridRegionDetail,
    },
    { request: pathRequest(regionArg) },
  ),
};
