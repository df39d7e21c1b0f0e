import { explainAnswer } from './explain.js';
import type { PreviewInfo } from './preview.js';

export interface CallOptions {
  signal?: AbortSignal;
  /** Skip a fresh cached answer and ask the service (a failure still falls back to the cache). */
  refresh?: boolean;
  /** `false`: neither read nor write the cache for this call. */
  cache?: boolean;
  /** Answer only from the cache (fresh or stale); never send (Excel's formula value preview). */
  cacheOnly?: boolean;
}

/** How an answer was obtained. */
export interface FetchMeta {
  fromCache: boolean;
  /** Served from the cache after a failed refresh or a spent allowance. */
  stale: boolean;
  /** A gated preview, not the full data. */
  preview: boolean;
  fetchedAt: number;
  ageMs: number;
  /** Why a stale answer was served. */
  reason?: string;
  /**
   * What the tolerant reader mended or left out, and notes about the allowance, one line each
   * ("chicago: brief failed to build on the service (left out)"). Hosts show them with the answer.
   */
  warnings: string[];
  /** What a preview withholds and how to open it (`previewSentence` words it). */
  previewInfo?: PreviewInfo;
  /**
   * What the service explains about the answer, one plain line each, in its words where it gave
   * words (`explainAnswer`: ISOs a time-to-power cut excluded and the hint, objectives not scored and
   * why, candidates left out, caveats, a missing forecast's reason). Hosts show them with the answer.
   */
  explanations?: string[];
  /** The call went out past an assumed daily allowance (one line saying so; also among `warnings`). */
  allowance?: string;
  /** Answered locally from a cached wider answer (the request below, of that age), not fetched. */
  derivedFrom?: { path: string; query: string; ageMs: number };
  /** One line a team gateway sent with the answer (it is degraded, say); also among `warnings`. */
  notice?: string;
}

export interface Fetched<T> extends FetchMeta {
  data: T;
}

const META = new WeakMap<object, FetchMeta>();

/** How the most recent delivery of `data` was obtained (from cache, stale, preview, age, warnings). */
export function fetchMeta(data: unknown): FetchMeta | undefined {
  return data && typeof data === 'object' ? META.get(data) : undefined;
}

/**
 * Records how `data` was obtained (objects only; a primitive answer carries its meta in Fetched),
 * with what the answer explains about itself read from it here, once for every way an answer
 * arrives (fetched, cached, derived, paged). Returns the meta as recorded.
 */
export function attachFetchMeta(data: unknown, meta: FetchMeta): FetchMeta {
  const explanations = meta.explanations ?? explainAnswer(data);
  const recorded = explanations.length ? { ...meta, explanations } : meta;
  if (data && typeof data === 'object') META.set(data, recorded);
  return recorded;
}

/** A duration for people: `45 s`, `12 min`, `3 h 5 min`, `2 days`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} days`;
}
