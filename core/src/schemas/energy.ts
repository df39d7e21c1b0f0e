import { z } from 'zod';
import { GatedFields, Provenance } from './envelope.js';
import { feedChoiceParam } from './feeds.js';

/**
 * Grid fuel mix, retail electricity prices and the grid-region intelligence preview (spec §2.8, §4.1; notes
 * §2.16-2.17).
 */

export const FUEL_MIX_ISOS = ['ERCOT', 'PJM', 'CAISO', 'MISO', 'SPP', 'NYISO', 'ISONE'] as const;
export type FuelMixIso = (typeof FUEL_MIX_ISOS)[number];

export const FuelMixQuery = z.object({
  iso: feedChoiceParam(FUEL_MIX_ISOS, {
    description: 'Grid operator (default ERCOT; ISONE also as ISO-NE)',
    aliases: { 'ISO-NE': 'ISONE', 'ISO NE': 'ISONE', ISO_NE: 'ISONE' },
    fallback: 'ERCOT',
  }),
});

const nnum = z.number().nullable();

export const FuelMixEntry = z.looseObject({
  source: z.string(),
  mw: nnum,
  percentage: nnum,
});

/** Live, or the EIA annual-average fallback (no total, `mw: null`, a `note`). */
export const FuelMix = z.looseObject({
  iso: z.string(),
  timestamp: z.string().nullable(),
  total_generation_mw: nnum.optional(),
  fuel_mix: z.array(FuelMixEntry),
  source: z.string(),
  note: z.string().optional(),
});

/** Live EIA prices, or the fallback (industrial and commercial only, `data_quality: "fallback"`). */
export const EnergyPrices = z.looseObject({
  state: z.string(),
  state_name: z.string().optional(),
  industrial_price_cents_kwh: z.number(),
  industrial_price_dollars_kwh: nnum.optional(),
  commercial_price_cents_kwh: nnum.optional(),
  residential_price_cents_kwh: nnum.optional(),
  all_sectors_price_cents_kwh: nnum.optional(),
  estimated_monthly_cost_per_mw: nnum.optional(),
  period: z.string().nullable().optional(),
  price_trend_12mo: z.array(z.looseObject({ period: z.string(), price: nnum })).optional(),
  source: z.string(),
  data_quality: z.string().optional(),
});

export const GRID_REGION_IDS = ['ercot', 'pjm', 'miso-spp', 'caiso', 'nyiso-isone'] as const;
/** Regions a keyless caller sees in the preview (spec §5.3: 3 of 5). */
export const GRID_REGIONS_KEYLESS = 3;

export const GridQueueSource = z.looseObject({
  iso: z.string(),
  source_name: z.string(),
  source_url: z.string(),
  source_as_of: z.string(),
  last_refreshed: z.string(),
  age_hours: z.number(),
  queued_generation_gw: z.number(),
  basis_note: z.string(),
});

export const GridRegion = z.looseObject({
  id: z.string(),
  iso: z.string(),
  name: z.string(),
  headline: z.string(),
  description: z.string(),
  page_url: z.string(),
  key_states: z.array(z.string()),
  corridor_count: z.number().int(),
  total_queue_gw: z.number(),
  status: z.string(),
  queue_basis: z.string(),
  large_load_queue_gw: z.number(),
  large_load_queue_as_of: z.string(),
  _queue_gw_source: z.string(),
  total_queue_gw_is_live: z.boolean(),
  total_queue_gw_as_of: z.string(),
  total_queue_gw_source: z.string(),
  corridors_is_baseline: z.boolean(),
  narrative_is_baseline: z.boolean(),
  corridors_baseline_as_of: z.string(),
  narrative_baseline_as_of: z.string(),
  narrative_source: z.string(),
  total_queue_gw_sources: z.array(GridQueueSource),
});

export const GridProvenance = Provenance.extend({
  basis_class: z.string(),
  cite_as: z.string(),
  default_v: z.string(),
  fallback_url: z.string(),
  license: z.string(),
  method: z.string(),
  provenance_revision: z.string(),
  provenance_version: z.number(),
  source: z.string(),
});

export const GridIntelligence = z.looseObject({
  success: z.boolean(),
  source: z.string(),
  total: z.number().int(),
  regions: z.array(GridRegion),
  provenance: GridProvenance,
  ...GatedFields,
});

export const GridRegionDetail = z.looseObject({
  success: z.boolean(),
  source: z.string(),
  region: GridRegion,
  provenance: GridProvenance,
});

export type FuelMixT = z.infer<typeof FuelMix>;
export type EnergyPricesT = z.infer<typeof EnergyPrices>;
export type GridRegionT = z.infer<typeof GridRegion>;
export type GridIntelligenceT = z.infer<typeof GridIntelligence>;
