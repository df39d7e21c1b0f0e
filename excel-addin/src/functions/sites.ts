/* global CustomFunctions */
import type { SiteScoreQueryInput } from '@dchub/core';
import { formula } from './load';

/**
 * Overall site score (0-100) of a location, or any member of the site-score answer.
 * @customfunction SITESCORE
 * @param lat Latitude in decimal degrees, -90 to 90.
 * @param lon Longitude in decimal degrees, -180 to 180.
 * @param [capacity_mw] Target load in MW.
 * @param [field] Member to return instead of the overall score, e.g. "fiber.connectivity_score" or
 * "nearby.substations_50km".
 * @param invocation Invocation (set by Excel).
 * @returns The overall score, or the member named by field.
 * @requiresAddress
 */
export function sitescore(
  lat: unknown,
  lon: unknown,
  capacity_mw: unknown,
  field: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown> {
  return formula(async ({ siteScore, serviceClient, callOptions, optional, pick, oneCellAt }) =>
    oneCellAt(invocation, 'SITESCORE', [lat, lon, capacity_mw, field], async (at) => {
      // Cell values as Excel passes them: core's schema reads them and refuses a wrong one by name.
      const s = await siteScore(
        await serviceClient(),
        { lat, lon, capacity_mw } as SiteScoreQueryInput,
        callOptions(invocation),
      );
      // Below the plan the scores are withheld: the message names what the preview does show.
      const band = (s as { verdict_band?: unknown }).verdict_band ?? s.interpretation;
      return pick(s, optional(field) ?? 'overall_score', {
        ...at,
        shown: typeof band === 'string' && band ? `verdict: ${band}` : undefined,
      });
    }),
  );
}
