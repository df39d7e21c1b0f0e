import { RedirectError } from '../errors.js';

/** Hops followed before giving up. */
export const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Headers that belong to the configured service only. */
const CREDENTIAL_HEADERS = ['x-api-key', 'authorization', 'cookie'];

/**
 * A fetch that follows redirects by hand (`redirect: 'manual'`), so the API key never leaves the
 * configured origin (a plain fetch keeps custom headers such as `X-API-Key` on every hop):
 *
 * - same origin (scheme, host and port): followed with the key;
 * - another origin while a key is set: refused with a RedirectError naming that origin (nothing
 *   is sent there; the user can point the base URL at it if it is the service's new home);
 * - another origin without a key: followed (there is no secret to protect);
 * - in a browser, where a manual redirect is opaque (its target is hidden from scripts), refused
 *   with a RedirectError, because the key would otherwise follow to an unknown place.
 *
 * 303 (and 301/302 after a POST) continue as a GET without a body, 307/308 keep method and body.
 */
export function redirectSafeFetch(fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, init);
    const body = request.body ? await request.clone().arrayBuffer() : undefined;
    const extra: RequestInit = {};
    // Options a caller passes beside the Request (e.g. a Node dispatcher) ride along on every hop.
    if (init) for (const [k, v] of Object.entries(init)) if (!(k in request)) (extra as Record<string, unknown>)[k] = v;
    for (let hop = 0; ; hop++) {
      const response = await fetchImpl(request, { ...extra, redirect: 'manual' });
      if (response.type === 'opaqueredirect') {
        throw new RedirectError(
          `${originOf(request.url)} answered with a redirect whose target the browser hides; the request was not repeated there. Set the service URL to the address the service now uses`,
        );
      }
      if (!REDIRECT.has(response.status)) return response;
      const location = response.headers.get('location');
      if (!location) return response;
      void response.body?.cancel().catch(() => undefined);
      const target = new URL(location, request.url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new RedirectError(`${originOf(request.url)} redirected to a ${target.protocol} address; not followed`, {
          status: response.status,
        });
      }
      const from = new URL(request.url);
      const sameOrigin = target.origin === from.origin;
      if (!sameOrigin && CREDENTIAL_HEADERS.some((h) => request.headers.has(h))) {
        throw new RedirectError(
          `${from.origin} redirected to another site (${target.origin}); the API key was not sent there. If that is the service's new address, use it as the base URL`,
          { status: response.status, location: target.origin },
        );
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new RedirectError(`${from.origin} redirected more than ${MAX_REDIRECTS} times; not followed further`, {
          status: response.status,
          location: target.origin,
        });
      }
      const toGet =
        response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
      const method = toGet ? 'GET' : request.method;
      const headers = new Headers(request.headers);
      if (toGet) {
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (!sameOrigin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      request = new Request(target, {
        method,
        headers,
        body: toGet || method === 'GET' || method === 'HEAD' ? undefined : body,
        signal: request.signal,
        redirect: 'manual',
      });
    }
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the service';
  }
}
