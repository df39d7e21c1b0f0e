import { SchemaDriftError } from '../errors.js';
import { SiteScore, type SiteScoreT } from '../schemas/sites.js';
import type { Reader } from './decode.js';
import { isRecord, parseTolerant, toNumber } from './tolerant.js';

/** The service's own wording of a score (notes §2.15), for answers that leave `interpretation` out. */
function interpretationOf(score: unknown): string {
  const n = toNumber(score);
  if (n === null || n === undefined) return '';
  return n >= 80 ? 'Excellent site' : n >= 70 ? 'Good site' : n >= 60 ? 'Viable site' : 'Challenging site';
}

/**
 * GET /api/site-score (notes §2.15): the legacy `{success, data}` envelope unwrapped, `lng` read as
 * `lon`, decimal strings coerced, `success` assumed when left out, and the below-Pro preview (every
 * score null, a preview marker) delivered as it is: what is there, marked as a preview.
 */
export const readSiteScore: Reader<SiteScoreT> = {
  what: 'site score',
  read(json, ctx) {
    if (!isRecord(json)) throw new SchemaDriftError('', 'the site score answer is not an object');
    let o: Record<string, unknown> = json;
    if (isRecord(o.data) && o.overall_score === undefined && 'overall_score' in o.data)
      o = { ...o, ...o.data, data: undefined };
    const loc = isRecord(o.location) ? o.location : undefined;
    const lat = loc?.lat ?? ctx.params?.get('lat');
    const lon = loc?.lon ?? loc?.lng ?? loc?.longitude ?? ctx.params?.get('lon');
    if (!loc) ctx.warnings.push('location missing from the answer; the requested point is shown');
    const mended = {
      ...o,
      success: typeof o.success === 'boolean' ? o.success : true,
      interpretation:
        typeof o.interpretation === 'string'
          ? o.interpretation
          : typeof o.verdict === 'string'
            ? o.verdict
            : interpretationOf(o.overall_score),
      location: { ...(loc ?? {}), lat, lon },
    };
    if (o.data === undefined) delete (mended as Record<string, unknown>).data;
    return parseTolerant(SiteScore, mended);
  },
};
