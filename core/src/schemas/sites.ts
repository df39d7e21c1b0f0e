import { z } from 'zod';
import { optionalNumber, optionalString, requiredNumber } from './params.js';

/** Query of GET /api/site-score (spec §4.1). `lng` and `capacity` are accepted as aliases. */
export const SiteScoreQuery = z.object({
  lat: requiredNumber({ min: -90, max: 90, description: 'Latitude in decimal degrees, -90 to 90' }),
  lon: requiredNumber({ min: -180, max: 180, description: 'Longitude in decimal degrees, -180 to 180' }),
  state: optionalString({ maxLength: 2, description: 'US state abbreviation' }),
  capacity_mw: optionalNumber({ gt: 0, max: 100000, description: 'Target load in MW' }),
});
export type SiteScoreQueryInput = z.input<typeof SiteScoreQuery>;
export type SiteScoreQueryT = z.output<typeof SiteScoreQuery>;

/** Folds the real service's parameter spellings (`lng`, `capacity`) into the spec's names. */
export function siteScoreAliases(q: Record<string, unknown>): Record<string, unknown> {
  return {
    ...q,
    lon: q.lon ?? q.lng ?? q.longitude,
    capacity_mw: q.capacity_mw ?? q.capacity,
  };
}

export const TopCarrier = z.looseObject({ carrier: z.string(), distance_km: z.number().nullable() });

const nnum = z.number().nullable();

/**
 * GET /api/site-score answer (spec §2.3): not enveloped; `success` instead of `_entity`. Scores are
 * null below the plan that opens them (a preview), and `null` stays null: a blank, never 0.
 */
export const SiteScore = z.looseObject({
  success: z.boolean(),
  overall_score: nnum,
  interpretation: z.string(),
  capacity_requested_mw: nnum.optional(),
  location: z.looseObject({ lat: z.number(), lon: z.number(), state: z.string().nullable().optional() }),
  scores: z.record(z.string(), nnum).optional(),
  fiber: z
    .looseObject({
      basis: z.string(),
      connectivity_score: nnum,
      carrier_count: nnum.optional(),
      near_net_bucket: z.string().nullable().optional(),
      nearest_carrier_km: nnum.optional(),
      single_carrier_risk: z.boolean().nullable().optional(),
      top_carriers: z.array(TopCarrier).optional(),
    })
    .optional(),
  nearby: z
    .looseObject({
      facilities_100km: nnum,
      fiber_carriers_in_state: nnum,
      gas_pipelines_50km: nnum,
      generation_capacity_mw: nnum,
      power_plants_80km: nnum,
      substations_50km: nnum,
      total_capacity_mw: nnum,
    })
    .partial()
    .optional(),
  capacity_context: z
    .looseObject({ affects_overall_score: z.boolean(), basis: z.string(), instead: z.string() })
    .partial()
    .optional(),
  source: z.string().optional(),
  upgrade_url: z.string().optional(),
});
export type SiteScoreT = z.infer<typeof SiteScore>;
