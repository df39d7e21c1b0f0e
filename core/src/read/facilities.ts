import { describeGated, previewInfo } from '../preview.js';
import { FacilityRow, FacilitySearch, type FacilitySearchT } from '../schemas/facilities.js';
import type { Reader } from './decode.js';
import { listAnswer, isRecord, parseTolerant, readRecords, textOf, nameBy } from './tolerant.js';

/** Fields of the full record that the keyless (basic) rows leave out. */
const FULL_FIELDS = ['operator', 'market', 'latitude', 'longitude', 'power_mw', 'status'];
const BasicOrFull = FacilityRow.partial({
  operator: true,
  market: true,
  latitude: true,
  longitude: true,
  power_mw: true,
  status: true,
});

/**
 * GET /api/v1/facilities (notes §2.9): the keyless answer (5 rows, basic fields, `total_matching`,
 * `full_results_available`) and the keyed one (legacy table rows, `pagination`) read into one shape;
 * `state: null` for other countries, missing slugs and ids tolerated, the 5-row cut described.
 */
export const readFacilities: Reader<FacilitySearchT> = {
  what: 'facilities',
  read(json, ctx) {
    const { top, head, list } = listAnswer(json, 'data', ['facilities', 'results'], 'facilities');
    let noId = 0;
    const rows = readRecords(list, BasicOrFull, ctx.warnings, {
      what: 'facility',
      name: nameBy('facility', 'name', { bare: true }),
      mend: (r) => {
        const out: Record<string, unknown> = { ...r };
        if (out.id === undefined || out.id === '') {
          noId++;
          out.id = null;
        }
        if (out.provider === undefined && out.operator !== undefined) out.provider = out.operator;
        if (out.latitude === undefined && out.lat !== undefined) out.latitude = out.lat;
        if (out.longitude === undefined && (out.lon ?? out.lng) !== undefined) out.longitude = out.lon ?? out.lng;
        for (const k of ['city', 'state', 'country', 'provider'] as const) if (out[k] === undefined) out[k] = null;
        return out;
      },
    });
    if (noId) ctx.warnings.push(`${noId} ${noId > 1 ? 'facilities' : 'facility'} without an id (left blank)`);
    const pagination = isRecord(head.pagination) ? head.pagination : {};
    const total =
      typeof head.total_matching === 'number'
        ? head.total_matching
        : typeof pagination.total === 'number'
          ? pagination.total
          : rows.length;
    const parsed = parseTolerant(FacilitySearch, {
      success: true,
      tier: '',
      ...head,
      count: rows.length,
      total_matching: total,
      data: [],
    });
    parsed.data = rows;
    const gated = describeGated(top, { rows, sent: ctx.params });
    if (gated) ctx.preview = gated;
    else if (head.full_results_available === true) {
      // The keyless cut: basic rows only (a keyed page has the full fields and is no preview).
      const present = new Set(rows.flatMap((r) => Object.keys(r)));
      const locked = FULL_FIELDS.filter((f) => !present.has(f));
      if (locked.length && rows.length) {
        ctx.preview = previewInfo({
          shown: rows.length,
          total,
          lockedFields: locked,
          message: textOf(head.note),
          upgradeUrl: textOf(head.upgrade_url),
        });
      }
    }
    return parsed;
  },
};
