import type { PreviewInfo } from '../preview.js';
import { MemoryStore, type KeyValueStore } from './store.js';

/** One stored answer: the raw JSON text (re-validated when read back) and its freshness. */
export interface StoredAnswer {
  text: string;
  storedAt: number;
  expiresAt: number;
  etag?: string;
  /** A gated preview: served as a preview, never as the full data. */
  preview?: boolean;
  /** Answer headers a text answer needs again (Content-Disposition, Content-Type). */
  headers?: Record<string, string>;
}

/** What reading an answer noticed, kept beside its parsed value. */
export interface ReadNotes {
  warnings: string[];
  preview?: PreviewInfo;
}

export interface CacheStats {
  hits: number;
  misses: number;
  staleServed: number;
  revalidated: number;
  stored: number;
  entries: number;
}

/**
 * Cached answers, keyed by method, path, normalized parameters and caller. A small parsed
 * layer in memory keeps warm lookups synchronous and cheap; the store underneath (memory, IndexedDB,
 * OfficeRuntime.storage or a directory) keeps answers across restarts.
 */
export class ResponseCache {
  readonly #parsed = new Map<string, { answer: StoredAnswer; value: unknown; notes?: ReadNotes }>();
  /** The characters of the answers' texts the parsed layer holds (their parsed values weigh about as much again). */
  #parsedChars = 0;
  readonly stats: CacheStats = { hits: 0, misses: 0, staleServed: 0, revalidated: 0, stored: 0, entries: 0 };

  /**
   * `maxParsed` answers and `maxParsedChars` characters of their texts stay parsed in memory, the oldest used
   * dropped first; an answer larger than the whole budget is read again from the store when next asked.
   */
  constructor(
    readonly store: KeyValueStore = new MemoryStore(),
    readonly maxParsed = 1000,
    readonly maxParsedChars = 64_000_000,
  ) {}

  /** The parsed value kept in memory for `key`, if any (no I/O); the store hears that it was used. */
  peek(key: string): { answer: StoredAnswer; value: unknown; notes?: ReadNotes } | undefined {
    const hit = this.#parsed.get(key);
    if (!hit) return undefined;
    this.#parsed.delete(key); // the most recently used is dropped last
    this.#parsed.set(key, hit);
    this.store.touch?.(key);
    return hit;
  }

  remember(key: string, answer: StoredAnswer, value: unknown, notes?: ReadNotes): void {
    this.#forget(key);
    if (answer.text.length > this.maxParsedChars) return;
    this.#parsed.set(key, { answer, value, ...(notes ? { notes } : {}) });
    this.#parsedChars += answer.text.length;
    while (this.#parsed.size > this.maxParsed || this.#parsedChars > this.maxParsedChars) {
      this.#forget(this.#parsed.keys().next().value!);
    }
  }

  #forget(key: string): void {
    const had = this.#parsed.get(key);
    if (!had) return;
    this.#parsed.delete(key);
    this.#parsedChars -= had.answer.text.length;
  }

  async load(key: string): Promise<StoredAnswer | undefined> {
    const raw = await this.store.get(key).catch(() => undefined);
    if (!raw) return undefined;
    try {
      const a = JSON.parse(raw) as StoredAnswer;
      return typeof a.text === 'string' && typeof a.expiresAt === 'number' ? a : undefined;
    } catch {
      return undefined;
    }
  }

  async save(key: string, answer: StoredAnswer, value: unknown, notes?: ReadNotes): Promise<void> {
    this.remember(key, answer, value, notes);
    this.stats.stored++;
    await this.store.set(key, JSON.stringify(answer)).catch(() => undefined);
  }

  /** Drops every cached answer (the quota ledger is kept). */
  async clear(prefix = 'dchub:c:'): Promise<number> {
    this.#parsed.clear();
    this.#parsedChars = 0;
    await this.store.sweepTemp?.();
    const keys = await this.store.keys(prefix);
    await Promise.all(keys.map((k) => this.store.delete(k)));
    return keys.length;
  }

  async count(prefix = 'dchub:c:'): Promise<number> {
    return (await this.store.keys(prefix)).length;
  }
}
