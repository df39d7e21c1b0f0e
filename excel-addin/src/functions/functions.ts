/* global CustomFunctions */
import { queueTable, refineQueue, siteScore } from '@dchub/core';
import { cancelSignal, headerMode, serviceClient, toCellError } from './service';
import { spill } from './spill';

/**
 * Overall site score (0-100) of a location for a data center, from DC Hub site scoring.
 * @customfunction SITESCORE
 * @helpurl https://dchub.cloud/docs/excel#sitescore
 * @param lat Latitude in decimal degrees, -90 to 90.
 * @param lon Longitude in decimal degrees, -180 to 180.
 * @param [capacity_mw] Target load in MW (optional).
 * @param invocation Invocation (set by Excel).
 * @returns The overall score, 0-100.
 */
export async function sitescore(lat: any, lon: any, capacity_mw: any, invocation: CustomFunctions.CancelableInvocation): Promise<number> {
  try {
    const client = await serviceClient();
    const s = await siteScore(client, { lat, lon, capacity_mw }, { signal: cancelSignal(invocation) });
    return s.overall_score;
  } catch (err) {
    throw toCellError(err);
  }
}

/**
 * Interconnection-queue projects that pass every filter, as a table with a header row.
 * @customfunction QUEUE
 * @helpurl https://dchub.cloud/docs/excel#queue
 * @param iso Grid operators, comma-separated: PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE. Blank for all.
 * @param [min_mw] Minimum project capacity in MW.
 * @param [max_ttp_months] Keep operators whose average time to power is at or under this many months.
 * @param [fuel_type] Fuel label text to match, comma-separated (e.g. "gas,nuclear").
 * @param [status] "active" (default), "all", or text to match in the status.
 * @param [baseload_only] TRUE keeps firm fuels only (no wind, solar, storage).
 * @param [max_fiber_km] Maximum km to the nearest long-haul fiber endpoint.
 * @param [geocoded_only] TRUE keeps projects with coordinates.
 * @param [limit] Maximum rows, 1-1000 (default 200).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns The surviving projects, one per row.
 */
export async function queue(
  iso: any,
  min_mw: any,
  max_ttp_months: any,
  fuel_type: any,
  status: any,
  baseload_only: any,
  max_fiber_km: any,
  geocoded_only: any,
  limit: any,
  headers: any,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  try {
    const mode = headerMode(headers);
    const client = await serviceClient();
    const result = await refineQueue(
      client,
      { iso, min_mw, max_ttp_months, fuel_type, status, baseload_only, max_fiber_km, geocoded_only, limit },
      { signal: cancelSignal(invocation) },
    );
    return spill(queueTable(result), mode, 'No queued projects match these filters');
  } catch (err) {
    throw toCellError(err);
  }
}
