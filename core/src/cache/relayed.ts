import type { FetchMeta } from '../call.js';

/**
 * How a relay obtained an answer, said in one response header. The Jupyter relay
 * (engine/relay.ts) answers from the server's cache and ledger, which are the caller's: a client
 * told it talks to that relay (`relayed`) keeps no cache of its own and shows these facts as the
 * answer's FetchMeta. A team gateway runs the same relay and marks its answers (cache/gateway.ts):
 * a client reads the header there too, and nowhere else (the service itself never sets it).
 */
export const ANSWER_HEADER = 'x-dchub-answer';

/** The facts the header carries. */
export type AnswerFacts = Pick<
  FetchMeta,
  'fromCache' | 'stale' | 'ageMs' | 'reason' | 'derivedFrom' | 'allowance' | 'notice'
>;

/** The header for an answer of this meta (none without meta). */
export function answerHeader(meta: FetchMeta | undefined): Record<string, string> {
  if (!meta) return {};
  const facts = {
    from_cache: meta.fromCache,
    stale: meta.stale,
    age_ms: meta.ageMs,
    ...(meta.reason ? { reason: meta.reason } : {}),
    ...(meta.derivedFrom ? { derived_from: meta.derivedFrom } : {}),
    ...(meta.allowance ? { allowance: meta.allowance } : {}),
    ...(meta.notice ? { notice: meta.notice } : {}),
  };
  return { [ANSWER_HEADER]: JSON.stringify(facts) };
}

const isAge = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const optionalText = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** The facts of the header in `headers`, or undefined when it is missing or malformed (then nothing is trusted). */
export function readAnswerHeader(headers: Headers): AnswerFacts | undefined {
  const raw = headers.get(ANSWER_HEADER);
  if (!raw) return undefined;
  try {
    return answerFacts(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/**
 * The facts as the header carries them, parsed (a gateway also puts them in an MCP tool result's `_meta`), or
 * undefined when malformed.
 */
export function answerFacts(value: unknown): AnswerFacts | undefined {
  const f = value as Record<string, unknown> | null | undefined;
  if (
    !f ||
    typeof f !== 'object' ||
    typeof f.from_cache !== 'boolean' ||
    typeof f.stale !== 'boolean' ||
    !isAge(f.age_ms)
  )
    return undefined;
  if (!optionalText(f.reason) || !optionalText(f.allowance) || !optionalText(f.notice)) return undefined;
  const d = f.derived_from as Record<string, unknown> | undefined;
  if (d !== undefined && !(d && typeof d.path === 'string' && typeof d.query === 'string' && isAge(d.ageMs)))
    return undefined;
  return {
    fromCache: f.from_cache,
    stale: f.stale,
    ageMs: f.age_ms,
    ...(f.reason ? { reason: f.reason } : {}),
    ...(d ? { derivedFrom: { path: d.path as string, query: d.query as string, ageMs: d.ageMs as number } } : {}),
    ...(f.allowance ? { allowance: f.allowance } : {}),
    ...(f.notice ? { notice: f.notice } : {}),
  };
}
