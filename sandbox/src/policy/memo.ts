import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

interface Encoded {
  body: Buffer;
  gzip?: Buffer;
  etag: string;
}

/**
 * Serialized answers kept per canonical request, like the real service's one-hour memo on the
 * refined queue: repeated calls cost a lookup, not a filter and a JSON encode. Answers carry an
 * ETag (If-None-Match → 304) and are gzip-encoded once for clients that accept it.
 */
export class AnswerMemo {
  readonly #entries = new Map<string, Encoded>();
  constructor(readonly maxEntries = 512) {}

  #encode(value: unknown): Encoded {
    const body = Buffer.from(JSON.stringify(value));
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
    return { body, etag, gzip: body.length > 1024 ? gzipSync(body, { level: 6 }) : undefined };
  }

  /** Answers `c` from the memo under `key`, building and storing the value on a miss. */
  respond(c: Context, key: string, build: () => unknown): Response {
    let e = this.#entries.get(key);
    if (e) {
      // Refresh recency (Map keeps insertion order: oldest first).
      this.#entries.delete(key);
      this.#entries.set(key, e);
    } else {
      e = this.#encode(build());
      this.#entries.set(key, e);
      if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    }
    const headers = new Headers(c.res.headers);
    headers.set('ETag', e.etag);
    headers.set('Content-Type', 'application/json');
    headers.set('Vary', 'Accept-Encoding, X-API-Key');
    if (c.req.header('if-none-match') === e.etag) return new Response(null, { status: 304, headers });
    if (e.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      headers.set('Content-Encoding', 'gzip');
      return new Response(e.gzip as unknown as BodyInit, { status: 200, headers });
    }
    return new Response(e.body as unknown as BodyInit, { status: 200, headers });
  }
}
