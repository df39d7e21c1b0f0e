import { fetchMeta } from '../call.js';
import { limitedText } from '../notes.js';
import { readQueue } from '../read/queue.js';
import { QueueFilters, QueueResult, queueSearchParams } from '../schemas/queue.js';
import { resource } from '../resource.js';
import { parseParams } from '../validate.js';

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

/** The weekly snapshot's date, from its id (`snap_2026-11-16`). */
export const snapshotDate = (id: string | undefined): string | undefined =>
  id?.startsWith('snap_') ? id.slice('snap_'.length) : undefined;

/**
 * Server-side reduction of the interconnection queue (spec §4.2): the canonical query of the filters
 * (defaults left out), answered through the derive setting (derive/queue-answers.ts). What the
 * service explains (the ISOs a time-to-power cut excluded, its hint when the cut emptied the set)
 * is the answer's `explanations`, shown by every host.
 */
export const queueEndpoint = resource(
  { method: 'get', path: '/api/v1/interconnection-queue/refined', query: QueueFilters, response: QueueResult },
  {
    reader: readQueue,
    request: (input, e) => {
      const parsed = parseParams(QueueFilters, input ?? {});
      return { path: e.path, params: queueSearchParams(parsed), parsed };
    },
    table: { rows: (r) => r.results, columns: QUEUE_COLUMNS },
    asOf: (r) => snapshotDate(r.snapshot_id),
    // The call's limit cut the survivors (a preview says so in its own words): every host's table says how many.
    note: (r) =>
      r.count_total_matching > r.results.length && !fetchMeta(r)?.preview
        ? limitedText(r.results.length, r.count_total_matching, 'projects')
        : undefined,
  },
);
