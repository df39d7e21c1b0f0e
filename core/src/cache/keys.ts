/**
 * Names of cached things. One function makes every key of the response cache, so that answers of
 * two callers, or of two services, never share a key; the Python API (`dchub_jupyterlab.api.store
 * .cache_key`) makes the same keys in the same directory.
 */

/** A 53-bit string hash (cyrb53): fast and well spread, not cryptographic. The sandbox seeds its data with it. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Non-cryptographic fingerprint: names a caller or a body in keys without storing it. */
export const fingerprint = (text: string): string => hash53(text).toString(36);

/** Every cache key starts with this (`cache clear` drops them; the quota ledger is apart). */
export const CACHE_KEY_PREFIX = 'dchub:c:';

/**
 * The key of one cached thing: who asked, which service, what. `service` is the base URL the
 * client was given (normalized: its origin, and a path prefix when it has one; the trailing slash
 * dropped); `verb` and `what` say what is kept: `GET /path?sorted-query`, `POST /path#<body
 * fingerprint>`, `MCP <tool>#<sorted arguments>`, `derive-index /path`. For example
 * `dchub:c:anon:GET https://dchub.cloud /api/news?limit=2`.
 */
export function cacheKey(callerId: string, service: string, verb: string, what: string): string {
  return `${CACHE_KEY_PREFIX}${callerId}:${verb} ${service.replace(/\/+$/, '')} ${what}`;
}
