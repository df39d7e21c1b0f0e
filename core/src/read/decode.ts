import type { z } from 'zod';
import { SchemaDriftError, errorFromResponse, htmlPageMessage } from '../errors.js';
import type { RawResponse } from '../http/transport.js';
import { looksLikeHtml } from '../http/words.js';
import { describeGated, type PreviewInfo } from '../preview.js';
import { parseTolerant } from './tolerant.js';

/** What a reader knows about the call it reads for, and where it reports what it had to mend. */
export interface ReadContext {
  path: string;
  /** The query the caller sent (previews name which of these filters were not applied). */
  params?: URLSearchParams;
  /** The JSON body the caller sent (POST). */
  body?: unknown;
  /** Record-level problems and mended variants, one line each, shown with the answer. */
  warnings: string[];
  /** Set by a reader that recognizes a preview of its own kind. */
  preview?: PreviewInfo;
}

/**
 * The tolerant reader of one resource: normalizes the real service's variants (field spellings,
 * envelopes, numeric strings, missing ids, failed records) into the shape its schema describes,
 * then validates what callers use. Throws SchemaDriftError only when the answer cannot serve.
 */
export interface Reader<T> {
  /** What is read, for messages ("queue results"). */
  readonly what: string;
  read(json: unknown, ctx: ReadContext): T;
}

/** A decoded answer with what the reader noticed. */
export interface Decoded<T> {
  value: T;
  warnings: string[];
  preview?: PreviewInfo;
}

/** Turns a raw answer (JSON, CSV, ...) into a value. Stored answers are decoded again when read back. */
export type Decoder<T> = (raw: RawResponse, ctx: ReadContext) => T;

export function isReader<T>(x: unknown): x is Reader<T> {
  return typeof x === 'object' && x !== null && typeof (x as Reader<T>).read === 'function' && !('safeParse' in x);
}

/** A reader that only validates (with numeric strings coerced): for answers without known variants. */
export function schemaReader<S extends z.ZodType>(schema: S, what = 'answer'): Reader<z.output<S>> {
  return { what, read: (json) => parseTolerant(schema, json) };
}

/** JSON of an answer, or SchemaDriftError saying in one line what came instead. */
export function parseAnswerJson(path: string, raw: RawResponse): unknown {
  try {
    return JSON.parse(raw.text);
  } catch {
    if (looksLikeHtml(raw.text, raw.headers.get('content-type')))
      throw new SchemaDriftError('', `${path}: ${htmlPageMessage(raw.status)}`);
    throw new SchemaDriftError('', `${path} answered ${raw.text.trim().length ? 'malformed JSON' : 'an empty body'}`, {
      body: raw.text.slice(0, 200),
    });
  }
}

/**
 * Decodes a JSON answer: errors reported with a 200 (`_entity: "error"`, `ok: false`,
 * `success: false` with an `error`) become typed errors; the reader normalizes and validates; the
 * gating markers become a PreviewInfo.
 */
export function decodeJson<T>(raw: RawResponse, reader: Reader<T>, ctx: ReadContext): Decoded<T> {
  const json = parseAnswerJson(ctx.path, raw);
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    if (o._entity === 'error' || o.ok === false || (o.success === false && typeof o.error === 'string')) {
      throw errorFromResponse(raw.status >= 400 ? raw.status : 500, json, raw.headers);
    }
  }
  let value: T;
  try {
    value = reader.read(json, ctx);
  } catch (err) {
    // `{"error": "Unsupported ISO: X", ...}` with a 200: the service's refusal, not drift.
    const said = (json as { error?: unknown } | null)?.error;
    if (err instanceof SchemaDriftError && typeof said === 'string' && said.trim())
      throw errorFromResponse(500, json, raw.headers);
    if (err instanceof SchemaDriftError) throw err;
    // Whatever odd shape tripped the reader, it is an unreadable answer (served stale when one is cached), never a
    // crash.
    throw new SchemaDriftError(
      '',
      `${ctx.path}: the ${reader.what} could not be read (${err instanceof Error ? err.message : String(err)})`,
      { body: json },
    );
  }
  const preview =
    ctx.preview ?? describeGated(json, { sent: ctx.params ?? (ctx.body as Record<string, unknown> | undefined) });
  return { value, warnings: ctx.warnings, ...(preview ? { preview } : {}) };
}
