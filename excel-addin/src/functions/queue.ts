/* global CustomFunctions */
import { formula } from './load';

/**
 * Header rows of a spilled table.
 * @customenum {number}
 */
enum HeaderRows {
  /** No header row */
  none = 0,
  /** A header row (default) */
  header = 1,
  /** A source/as-of row and a header row */
  source = 2,
}

/**
 * Interconnection-queue projects that pass every filter, as a table.
 * @customfunction QUEUE
 * @param [iso] Comma-separated union of PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE (ISONE accepted), any case. Blank
 * for all.
 * @param [min_mw] Minimum project capacity, MW.
 * @param [max_ttp_months] Keep ISOs whose average time to power is at or under this many months.
 * @param [fuel_type] Case-insensitive substring of the raw fuel label; comma or semicolon separates a union. For
 * example "gas,nuclear".
 * @param [status] "active" (default) drops withdrawn, cancelled, suspended and operating projects; "all" keeps every
 * status; other text is a substring match.
 * @param [baseload_only] Keep firm/dispatchable fuels only, dropping wind, solar and storage (default false).
 * @param [max_fiber_km] Maximum km to the nearest mapped long-haul fiber endpoint; implies geocoded rows.
 * @param [geocoded_only] Keep survivors with latitude and longitude (default false).
 * @param [limit] Maximum rows returned, 1-1000 (default 200).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns The surviving projects, one per row.
 */
export function queue(
  iso: unknown,
  min_mw: unknown,
  max_ttp_months: unknown,
  fuel_type: unknown,
  status: unknown,
  baseload_only: unknown,
  max_fiber_km: unknown,
  geocoded_only: unknown,
  limit: unknown,
  headers: HeaderRows,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  const cells = [iso, min_mw, max_ttp_months, fuel_type, status, baseload_only, max_fiber_km, geocoded_only, limit];
  return formula(async (e) => {
    const { refineQueue, queueTable, queueFilters, serviceClient, callOptions, headerMode, spillAnswer } = e;
    const mode = headerMode(headers);
    const r = await refineQueue(await serviceClient(), queueFilters(cells), callOptions(invocation));
    return spillAnswer(r, queueTable(r), mode, 'No queued projects match these filters');
  });
}
