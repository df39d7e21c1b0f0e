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
}

/** A bounded in-memory LRU, by entry count and by stored characters. */
export class MemoryStore implements KeyValueStore {
  readonly #map = new Map<string, string>();
  #chars = 0;
  constructor(readonly maxEntries = 2000, readonly maxChars = 50_000_000) {}

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
 * OfficeRuntime.storage, shared by every add-in of the domain (10 MB in all): entries are kept
 * under `budgetChars` (default 2 M characters) by evicting the least recently written.
 */
export class OfficeRuntimeStore implements KeyValueStore {
  static readonly INDEX = 'dchub:index';
  #index: Array<[string, number]> | undefined;
  constructor(private readonly storage: OfficeStorage, readonly budgetChars = 2_000_000) {}

  async #load(): Promise<Array<[string, number]>> {
    if (!this.#index) {
      try {
        this.#index = JSON.parse((await this.storage.getItem(OfficeRuntimeStore.INDEX)) ?? '[]');
      } catch {
        this.#index = [];
      }
    }
    return this.#index!;
  }
  async #save(): Promise<void> {
    await this.storage.setItem(OfficeRuntimeStore.INDEX, JSON.stringify(this.#index ?? []));
  }
  async get(key: string): Promise<string | undefined> {
    return (await this.storage.getItem(key)) ?? undefined;
  }
  async set(key: string, value: string): Promise<void> {
    if (value.length > this.budgetChars) return; // never let one answer crowd out everything
    const index = (await this.#load()).filter(([k]) => k !== key);
    index.push([key, value.length]);
    let total = index.reduce((s, [, n]) => s + n, 0);
    while (total > this.budgetChars && index.length > 1) {
      const [old, n] = index.shift()!;
      total -= n;
      await this.storage.removeItem(old);
    }
    this.#index = index;
    await this.storage.setItem(key, value);
    await this.#save();
  }
  async delete(key: string): Promise<void> {
    this.#index = (await this.#load()).filter(([k]) => k !== key);
    await this.storage.removeItem(key);
    await this.#save();
  }
  async keys(prefix: string): Promise<string[]> {
    return (await this.#load()).map(([k]) => k).filter((k) => k.startsWith(prefix));
  }
}

/** IndexedDB (browsers): one object store of strings. */
export class IndexedDbStore implements KeyValueStore {
  #db: Promise<IDBDatabase> | undefined;
  constructor(readonly dbName = 'dchub-cache', readonly storeName = 'kv') {}

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(this.dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(this.storeName);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return this.#db;
  }
  async #tx<T>(mode: IDBTransactionMode, run: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await this.#open();
    return new Promise((resolve, reject) => {
      const req = run(db.transaction(this.storeName, mode).objectStore(this.storeName));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
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
    const all = (await this.#tx('readonly', (s) => s.getAllKeys())) as IDBValidKey[];
    return all.map(String).filter((k) => k.startsWith(prefix));
  }
}
