/**
 * Request bodies read with bounds: refused while they stream in (never read whole past the limit),
 * nesting depth checked before JSON.parse, so a hostile body costs at most `maxBytes` and one pass.
 */
export const MAX_BODY_BYTES = 1_000_000;
/** Deepest JSON nesting accepted (objects and arrays); real bodies need fewer than 10 levels. */
export const MAX_JSON_DEPTH = 64;

export type BodyRead = { ok: true; json: unknown } | { ok: false; status: 400 | 413; param: string; message: string };

/** True when the JSON text nests deeper than `max` (strings skipped); linear, no recursion. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91 /* { [ */) {
      if (++depth > max) return true;
    } else if (ch === 125 || ch === 93 /* } ] */) depth--;
  }
  return false;
}

/** The body as text, or a 413 as soon as more than `maxBytes` arrived (or were announced). */
export async function readBounded(
  req: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<{ ok: true; text: string } | { ok: false }> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false };
  if (!req.body) return { ok: true, text: '' };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  return { ok: true, text: Buffer.concat(chunks, size).toString('utf8') };
}

/** Reads a JSON body within the size and depth bounds; an empty body is `{}`. */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<BodyRead> {
  const read = await readBounded(req, maxBytes);
  if (!read.ok) return { ok: false, status: 413, param: 'body', message: `must be at most ${maxBytes} bytes` };
  if (!read.text.trim()) return { ok: true, json: {} };
  if (jsonTooDeep(read.text))
    return {
      ok: false,
      status: 400,
      param: 'body',
      message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels (the limit)`,
    };
  try {
    return { ok: true, json: JSON.parse(read.text) };
  } catch {
    return { ok: false, status: 400, param: 'body', message: 'must be valid JSON' };
  }
}
