/* global CustomFunctions */
import { formula } from './load';

/**
 * Overall site score (0-100) of a location, or any member of the site-score answer.
 * @customfunction SITESCORE
 * @helpurl https://dchub.cloud/docs/excel#sitescore
 * @param lat Latitude in decimal degrees, -90 to 90.
 * @param lon Longitude in decimal degrees, -180 to 180.
 * @param [capacity_mw] Target load in MW.
 * @param [field] Member to return instead of the overall score, e.g. "fiber.connectivity_score" or "nearby.substations_50km".
 * @param invocation Invocation (set by Excel).
 * @returns The overall score, or the member named by field.
 */
export function sitescore(lat: any, lon: any, capacity_mw: any, field: any, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return formula(async ({ siteScore, serviceClient, callOptions, optional, pick }) => {
    const s = await siteScore(await serviceClient(), { lat, lon, capacity_mw }, callOptions(invocation));
    return optional(field) === undefined ? s.overall_score : pick(s, field);
  });
}
