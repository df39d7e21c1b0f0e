import type { RawResponse } from '../http/transport.js';
import type { Decoded } from '../read/decode.js';
import { lifetimeFor } from './lifetimes.js';
import type { StoredAnswer } from './responses.js';

/** Headers an answer needs when it is read back from the cache (a CSV page's total and tier too). */
const KEPT_HEADERS = [
  'content-disposition',
  'content-type',
  'x-total-available',
  'x-market-brief-tier',
  'x-market-brief-mode',
];

/**
 * An answer as it is kept: its text, its lifetime from when it was written, its ETag, the headers
 * reading it back needs, and whether it is a preview (never served as full data). A header that
 * echoes the caller's key (`mayStore` says no) is never written down, nor its ETag sent back.
 */
export function answerToKeep<T>(
  raw: RawResponse,
  d: Decoded<T>,
  o: { path: string; writtenAt: number; mayStore: (text: string) => boolean },
): StoredAnswer {
  const keep = (v: string | null): v is string => v !== null && o.mayStore(v);
  const headers: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = raw.headers.get(h);
    if (keep(v)) headers[h] = v;
  }
  const etag = raw.headers.get('etag');
  return {
    text: raw.text,
    storedAt: o.writtenAt,
    expiresAt: o.writtenAt + lifetimeFor(o.path, o.writtenAt, d.value),
    etag: keep(etag) ? etag : undefined,
    preview: d.preview !== undefined || (d.value as { _gated?: unknown } | null)?._gated === true,
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}
