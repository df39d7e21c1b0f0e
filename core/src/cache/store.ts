/**
 * Where cached answers and the quota ledger live. One small async key/value interface, with
 * adapters for memory (bounded LRU), IndexedDB (browsers, JupyterLab), OfficeRuntime.storage
 * (Excel, kept well under its 10 MB per-domain budget) and a directory (Node, the CLI).
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Keys starting with `prefix`. */
  keys(prefix: string): Promise<string[]>;
  /** The value was used (served from a layer above): stores that evict by use keep it longer. */
  touch?(key: string): void;
  /**
   * Other processes write this store too (a directory the CLI, kernels and the Jupyter relay
   * share): state kept in memory above it (the ledger, the derive index) is read again each time.
   */
  readonly shared?: boolean;
  /**
   * Reads, changes and writes one value atomically with respect to every other writer of the store
   * (other processes included): `change` returns the new text, or undefined to leave it.
   */
  update?(key: string, change: (current: string | undefined) => string | undefined): Promise<void>;
  /** Removes what writers that died left behind (temp files); how many. */
  sweepTemp?(): Promise<number>;
  /**
   * Claims the right to fetch `key` for every process sharing the store: the release function when
   * this process got it (call it once the answer is stored), or 'waited' when another process held
   * it and has finished or given up (its answer may now be stored), bounded by `waitMs`.
   */
  claim?(key: string, opts: { waitMs: number; signal?: AbortSignal }): Promise<(() => Promise<void>) | 'waited'>;
}

/** A bounded in-memory LRU, by entry count and by stored characters. */
export class MemoryStore implements KeyValueStore {
  readonly #map = new Map<string, string>();
  #chars = 0;
  constructor(
    readonly maxEntries = 2000,
    readonly maxChars = 50_000_000,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return this.getSync(key);
  }
  /** Synchronous read, for the hot path of warm-cache lookups. */
  getSync(key: string): string | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  async set(key: string, value: string): Promise<void> {
    this.setSync(key, value);
  }
  touch(key: string): void {
    this.getSync(key);
  }
  setSync(key: string, value: string): void {
    const old = this.#map.get(key);
    if (old !== undefined) this.#chars -= old.length;
    this.#map.delete(key);
    this.#map.set(key, value);
    this.#chars += value.length;
    while (this.#map.size > this.maxEntries || this.#chars > this.maxChars) {
      const [k, v] = this.#map.entries().next().value!;
      this.#map.delete(k);
      this.#chars -= v.length;
    }
  }
  async delete(key: string): Promise<void> {
    const old = this.#map.get(key);
    if (old !== undefined) this.#chars -= old.length;
    this.#map.delete(key);
  }
  async keys(prefix: string): Promise<string[]> {
    return [...this.#map.keys()].filter((k) => k.startsWith(prefix));
  }
  get size(): number {
    return this.#map.size;
  }
  get chars(): number {
    return this.#chars;
  }
}

interface OfficeStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
  getKeys?(): Promise<string[]>;
}

/**
 * OfficeRuntime.storage, shared by every add-in of the domain (10 MB in all). Cached answers are
 * kept under `budgetChars` (default 2 M characters) by evicting the least recently used (read or
 * written); one answer may take at most `maxEntryChars` (default half the budget), so a widened
 * queue answer (~700 K characters) never crowds out everything else. Bookkeeping is never
 * evicted and does not count: the quota ledger and the derive indexes that make cached wider
 * answers usable (`pinned`).
 */
export class OfficeRuntimeStore implements KeyValueStore {
  static readonly INDEX = 'dchub:index';
  /** Keys kept whatever the budget: everything but cached answers, and the derive indexes among them. */
  static pinned(key: string): boolean {
    return !key.startsWith('dchub:c:') || key.includes(':derive-index ');
  }
  /** Key → characters, least recently used first (Map order). */
  #index: Map<string, number> | undefined;
  #loading: Promise<Map<string, number>> | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  readonly maxEntryChars: number;

  constructor(
    private readonly storage: OfficeStorage,
    readonly budgetChars = 2_000_000,
    maxEntryChars?: number,
  ) {
    this.maxEntryChars = maxEntryChars ?? Math.floor(budgetChars / 2);
  }

  #load(): Promise<Map<string, number>> {
    if (this.#index) return Promise.resolve(this.#index);
    this.#loading ??= this.storage.getItem(OfficeRuntimeStore.INDEX).then(
      (text) => {
        let list: unknown;
        try {
          list = JSON.parse(text ?? '[]');
        } catch {
          list = [];
        }
        const pairs = Array.isArray(list)
          ? list.filter(
              (e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number',
            )
          : [];
        return (this.#index ??= new Map(pairs));
      },
      () => (this.#index ??= new Map()),
    );
    return this.#loading;
  }

  /** One writer at a time: concurrent formulas must not lose each other's index entries. */
  #locked<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  #save(index: Map<string, number>): Promise<void> {
    return this.storage.setItem(OfficeRuntimeStore.INDEX, JSON.stringify([...index]));
  }

  async get(key: string): Promise<string | undefined> {
    const value = (await this.storage.getItem(key)) ?? undefined;
    if (value !== undefined) {
      await this.#load();
      this.touch(key);
    }
    return value;
  }

  /** Recently used: last to go. Kept in memory; written with the index at the next change. */
  touch(key: string): void {
    const index = this.#index;
    const n = index?.get(key);
    if (!index || n === undefined || OfficeRuntimeStore.pinned(key)) return;
    index.delete(key);
    index.set(key, n);
  }

  async set(key: string, value: string): Promise<void> {
    await this.#locked(async () => {
      const index = await this.#load();
      const pinned = OfficeRuntimeStore.pinned(key);
      if (!pinned && value.length > this.maxEntryChars) {
        // Too large to keep: drop an older copy rather than serve it as this answer later.
        if (index.delete(key)) {
          await this.storage.removeItem(key);
          await this.#save(index);
        }
        return;
      }
      index.delete(key);
      index.set(key, value.length);
      let total = 0;
      for (const [k, n] of index) if (!OfficeRuntimeStore.pinned(k)) total += n;
      for (const [k, n] of [...index]) {
        if (total <= this.budgetChars) break;
        if (k === key || OfficeRuntimeStore.pinned(k)) continue;
        index.delete(k);
        total -= n;
        await this.storage.removeItem(k);
      }
      await this.storage.setItem(key, value);
      await this.#save(index);
    });
  }

  async delete(key: string): Promise<void> {
    await this.#locked(async () => {
      const index = await this.#load();
      index.delete(key);
      await this.storage.removeItem(key);
      await this.#save(index);
    });
  }

  async keys(prefix: string): Promise<string[]> {
    return [...(await this.#load()).keys()].filter((k) => k.startsWith(prefix));
  }

  /** Characters of cached answers kept (bookkeeping left out), as the budget counts them. */
  async usedChars(): Promise<number> {
    let total = 0;
    for (const [k, n] of await this.#load()) if (!OfficeRuntimeStore.pinned(k)) total += n;
    return total;
  }
}

/** IndexedDB (browsers): one object store of strings. */
export class IndexedDbStore implements KeyValueStore {
  #db: Promise<IDBDatabase> | undefined;
  constructor(
    readonly dbName = 'dchub-cache',
    readonly storeName = 'kv',
  ) {}

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(this.dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(this.storeName);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error(`IndexedDB: ${this.dbName} could not be opened`));
    });
    return this.#db;
  }
  async #tx<T>(mode: IDBTransactionMode, run: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await this.#open();
    return new Promise((resolve, reject) => {
      const req = run(db.transaction(this.storeName, mode).objectStore(this.storeName));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error(`IndexedDB: a ${mode} request on ${this.storeName} failed`));
    });
  }
  async get(key: string): Promise<string | undefined> {
    return (await this.#tx('readonly', (s) => s.get(key))) as string | undefined;
  }
  async set(key: string, value: string): Promise<void> {
    await this.#tx('readwrite', (s) => s.put(value, key));
  }
  async delete(key: string): Promise<void> {
    await this.#tx('readwrite', (s) => s.delete(key));
  }
  async keys(prefix: string): Promise<string[]> {
    const all = await this.#tx<IDBValidKey[]>('readonly', (s) => s.getAllKeys());
    return all.map(String).filter((k) => k.startsWith(prefix));
  }
}
