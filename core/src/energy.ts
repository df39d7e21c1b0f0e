import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS, endpointPath } from './endpoints.js';
import { ValidationError } from './errors.js';
import { readEnergyPrices, readFuelMix } from './read/energy.js';
import {
  FuelMixQuery,
  GridIntelligence,
  GRID_REGION_IDS,
  GridRegionDetail,
  type EnergyPricesT,
  type FuelMixT,
  type GridIntelligenceT,
} from './schemas/energy.js';
import { fieldTable, tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

export type GridRegionDetailT = z.infer<typeof GridRegionDetail>;

const pathArg = (name: string, v: unknown, max = 60): string => {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) throw new ValidationError(name, 'is required');
  if (s.length > max) throw new ValidationError(name, `must be at most ${max} characters`);
  return encodeURIComponent(s);
};

/** GET /api/grid/fuel-mix: generation by fuel of a US grid operator (ERCOT by default). */
export async function fuelMix(client: DchubClient, iso?: string | null, opts: CallOptions = {}): Promise<FuelMixT> {
  const f = parseParams(FuelMixQuery, { iso });
  return client.getJson(ENDPOINTS.fuelMix.path, readFuelMix, new URLSearchParams({ iso: f.iso ?? 'ERCOT' }), opts);
}

export const fuelMixTable = (m: FuelMixT): Table =>
  tableFromRecords(m.fuel_mix, ['source', 'mw', 'percentage'], {
    asOf: m.timestamp ?? undefined,
    note:
      m.total_generation_mw != null
        ? `${m.iso}: ${m.total_generation_mw} MW total generation`
        : `${m.iso}: ${m.note ?? 'shares only (no live totals)'}`,
  });

/** GET /api/energy/prices/{state}: retail prices of a US state (code or name). */
export async function energyPrices(client: DchubClient, state: string, opts: CallOptions = {}): Promise<EnergyPricesT> {
  return client.getJson(
    endpointPath(ENDPOINTS.energyPrices, { state: pathArg('state', state) }),
    readEnergyPrices,
    undefined,
    opts,
  );
}

/** Field/value rows; the 12-month trend becomes one row per period (`price_trend_12mo.2026-09`). */
export const pricesTable = (p: EnergyPricesT): Table => {
  const { price_trend_12mo: trend, ...rest } = p;
  const isos = (rest as { isos?: unknown }).isos;
  return fieldTable(
    {
      ...rest,
      ...(Array.isArray(isos) ? { isos: isos.join(', ') } : {}),
      price_trend_12mo: Object.fromEntries((trend ?? []).map((t) => [t.period, t.price])),
    },
    { asOf: p.period ?? undefined, note: 'Prices in cents per kWh; estimated_monthly_cost_per_mw in USD' },
  );
};

/** GET /api/v1/grid-intelligence: the grid regions (keyless answers are a preview flagged `_gated`). */
export const gridRegions = (client: DchubClient, opts: CallOptions = {}): Promise<GridIntelligenceT> =>
  client.getJson(ENDPOINTS.gridIntelligence.path, GridIntelligence, undefined, opts);

export const GRID_REGION_COLUMNS = [
  'id',
  'iso',
  'name',
  'total_queue_gw',
  'large_load_queue_gw',
  'corridor_count',
  'status',
  'queue_basis',
  'key_states',
  'total_queue_gw_as_of',
  'total_queue_gw_source',
  'total_queue_gw_is_live',
  'headline',
  'page_url',
] as const;

export const gridRegionsTable = (g: GridIntelligenceT): Table =>
  tableFromRecords(
    g.regions.map((r) => ({ ...r, key_states: r.key_states.join(', ') })),
    GRID_REGION_COLUMNS,
    {
      citation: g.provenance.cite_as,
      asOf: g.regions[0]?.total_queue_gw_as_of,
      note: g._gated
        ? (g._upgrade_cta ?? `Preview: ${g.regions.length} of ${g._total_available ?? '?'} regions`)
        : undefined,
    },
  );

/** GET /api/v1/grid-intelligence/{id}: one region (requires a key). */
export async function gridRegion(client: DchubClient, id: string, opts: CallOptions = {}): Promise<GridRegionDetailT> {
  const s = typeof id === 'string' ? id.trim().toLowerCase() : '';
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(s)) {
    throw new ValidationError(
      'region_id',
      `must be a region id such as ${GRID_REGION_IDS.join(', ')}, got ${JSON.stringify(id)}`,
    );
  }
  return client.getJson(
    endpointPath(ENDPOINTS.gridRegion, { region_id: encodeURIComponent(s) }),
    GridRegionDetail,
    undefined,
    opts,
  );
}
