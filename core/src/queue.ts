import type { CallOptions, DchubClient } from './client.js';
import { answerQueue } from './derive/queue-answers.js';
import { QueueFilters, type QueueFiltersInput, type QueueResultT } from './schemas/queue.js';
import { tableFromRecords, type Table } from './table.js';
import { parseParams } from './validate.js';

export { QUEUE_PATH } from './derive/queue-answers.js';

/**
 * Server-side reduction of the interconnection queue (spec §4.2). Answered from a cached wider
 * answer when one provably holds it (`fetchMeta(r).derivedFrom` says which), per the client's
 * `derive` setting.
 */
export async function refineQueue(
  client: DchubClient,
  filters: QueueFiltersInput = {},
  opts: CallOptions = {},
): Promise<QueueResultT> {
  return answerQueue(client, parseParams(QueueFilters, filters), opts);
}

/** Stable column order of a queue table. */
export const QUEUE_COLUMNS = [
  'queue_id',
  'project_name',
  'iso',
  'state',
  'county',
  'fuel_type',
  'fuel_class',
  'capacity_mw',
  'queue_status',
  'queue_date',
  'poi_name',
  'lat',
  'lng',
  'fiber_km',
  'estimated_ttp_months',
  'coordinate_precision',
  'candidate_id',
] as const;

/**
 * The survivors as a table. What the service explains (the ISOs a time-to-power cut excluded, its
 * hint when the cut emptied the set) is `fetchMeta(result).explanations`, shown by every host.
 */
export function queueTable(result: QueueResultT): Table {
  const records = result.results.map((r) => ({ ...r, lng: r.lng ?? (r as { lon?: number | null }).lon }));
  return tableFromRecords(records, QUEUE_COLUMNS, {
    citation: result._cite ?? result.citation?.cite_as,
    asOf: result.snapshot_id?.replace(/^snap_/, ''),
  });
}
