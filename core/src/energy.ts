import type { z } from 'zod';
import type { CallOptions, DchubClient } from './client.js';
import { ENDPOINTS } from './endpoints.js';
import { tableFor } from './resource.js';
import { byClient, fetchData } from './resource-call.js';
import type { EnergyPricesT, FuelMixT, GridRegionDetail } from './schemas/energy.js';

export { GRID_REGION_COLUMNS } from './resources/energy.js';

export type GridRegionDetailT = z.infer<typeof GridRegionDetail>;

/** GET /api/grid/fuel-mix: generation by fuel of a US grid operator (ERCOT by default). */
export const fuelMix = (client: DchubClient, iso?: string | null, opts: CallOptions = {}): Promise<FuelMixT> =>
  fetchData(client, ENDPOINTS.fuelMix, { iso }, opts);

export const fuelMixTable = /* @__PURE__ */ tableFor(ENDPOINTS.fuelMix);

/** GET /api/energy/prices/{state}: retail prices of a US state (code or name). */
export const energyPrices = (client: DchubClient, state: string, opts: CallOptions = {}): Promise<EnergyPricesT> =>
  fetchData(client, ENDPOINTS.energyPrices, { state }, opts);

/** Field/value rows; the 12-month trend becomes one row per period (`price_trend_12mo.2026-09`). */
export const pricesTable = /* @__PURE__ */ tableFor(ENDPOINTS.energyPrices);

/** GET /api/v1/grid-intelligence: the grid regions (keyless answers are a preview flagged `_gated`). */
export const gridRegions = /* @__PURE__ */ byClient(ENDPOINTS.gridIntelligence);

export const gridRegionsTable = /* @__PURE__ */ tableFor(ENDPOINTS.gridIntelligence);

/** GET /api/v1/grid-intelligence/{id}: one region (requires a key). */
export const gridRegion = (client: DchubClient, id: string, opts: CallOptions = {}): Promise<GridRegionDetailT> =>
  fetchData(client, ENDPOINTS.gridRegion, { region_id: id }, opts);
