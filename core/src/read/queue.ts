import { describeGated } from '../preview.js';
import { foldQueueSpellings, QueueRecordShape, QueueResult, type QueueResultT } from '../schemas/queue.js';
import type { Reader } from './decode.js';
import { listAnswer, isRecord, parseTolerant, readRecords, textOf, nameBy } from './tolerant.js';

const FILTER_KEYS = [
  'baseload_only',
  'fuel_type',
  'geocoded_only',
  'iso',
  'max_fiber_km',
  'max_ttp_months',
  'min_mw',
  'status',
] as const;

/** The real service's spellings folded into the spec's (`foldQueueSpellings`), a missing `queue_id` read from `id`. */
function mendRecord(r: Record<string, unknown>): Record<string, unknown> {
  const out = foldQueueSpellings(r);
  return out.queue_id === undefined && textOf(out.id) ? { ...out, queue_id: textOf(out.id) } : out;
}

/**
 * GET /api/v1/interconnection-queue/refined (notes §2.21): records read one by one (a bad one is
 * named and left out), counts and filters filled from the rows when the service left them out, the
 * legacy `{success, data}` envelope and bare lists accepted, and the 3-row tease described.
 */
export const readQueue: Reader<QueueResultT> = {
  what: 'queue results',
  read(json, ctx) {
    const { top, head, list } = listAnswer(json, 'results', ['data', 'survivors', 'items'], 'queue records');
    const results = readRecords(list, QueueRecordShape, ctx.warnings, {
      what: 'queue record',
      name: nameBy('queue record', 'queue_id'),
      mend: (r) => mendRecord(r),
    });
    head._entity ??= 'queue_results';
    head.ok ??= true;
    if (typeof head.count_returned !== 'number') {
      if (head.count_returned === undefined)
        ctx.warnings.push('count_returned missing from the answer; counted from the rows');
      head.count_returned = results.length;
    } else if (results.length < list.length) {
      head.count_returned = results.length; // the rows delivered, after left-out ones
    }
    if (typeof head.count_total_matching !== 'number') {
      const total = typeof head._total_available === 'number' ? head._total_available : undefined;
      head.count_total_matching = total ?? head.count_returned;
      if (total === undefined)
        ctx.warnings.push('count_total_matching missing from the answer; the total is not known beyond the rows shown');
    }
    const filters = isRecord(head.filters_applied) ? head.filters_applied : {};
    head.filters_applied = Object.fromEntries(
      FILTER_KEYS.map((k) => [k, filters[k] ?? null]).concat(
        Object.entries(filters).filter(([k]) => !(FILTER_KEYS as readonly string[]).includes(k)),
      ),
    );
    const parsed = parseTolerant(QueueResult, { ...head, results: [] });
    parsed.results = results;
    const preview = describeGated(top, { rows: results, sent: ctx.params });
    if (preview) ctx.preview = preview;
    return parsed;
  },
};
