import { attachFetchMeta, type FetchMeta, type Fetched } from '../call.js';
import type { AnswerFacts } from './relayed.js';
import type { StoredAnswer } from './responses.js';

/** How an answer was obtained, for its FetchMeta. */
export interface Delivery {
  fromCache: boolean;
  stale: boolean;
  now: number;
  reason?: string;
  notes?: { warnings: string[]; preview?: FetchMeta['previewInfo'] };
  extra?: string;
  /**
   * The relay's account of the answer, which replaces this client's (it sent the request, the relay answered it).
   */
  relay?: AnswerFacts;
  /** The team gateway's notice sent with this answer (one line: it is degraded). */
  notice?: string;
}

/** A decoded value with its FetchMeta attached: where it came from, how old it is, and what to warn about. */
export function deliver<T>(value: T, answer: StoredAnswer, m: Delivery): Fetched<T> {
  const r = m.relay;
  const extra = r ? r.allowance : m.extra;
  const reason = r ? r.reason : m.reason;
  const ageMs = r ? r.ageMs : Math.max(0, m.now - answer.storedAt);
  // A gateway's notice comes in its header, or through the Jupyter relay in the relay's facts.
  const notice = m.notice ?? r?.notice;
  const warnings = [...(m.notes?.warnings ?? []), ...(extra ? [extra] : []), ...(notice ? [notice] : [])];
  const meta: FetchMeta = {
    fromCache: r ? r.fromCache : m.fromCache,
    stale: r ? r.stale : m.stale,
    preview: answer.preview === true || m.notes?.preview !== undefined,
    fetchedAt: r ? m.now - r.ageMs : answer.storedAt,
    ageMs,
    ...(reason ? { reason } : {}),
    warnings,
    ...(m.notes?.preview ? { previewInfo: m.notes.preview } : {}),
    ...(extra ? { allowance: extra } : {}),
    ...(r?.derivedFrom ? { derivedFrom: r.derivedFrom } : {}),
    ...(notice ? { notice } : {}),
  };
  return { data: value, ...attachFetchMeta(value, meta) };
}
