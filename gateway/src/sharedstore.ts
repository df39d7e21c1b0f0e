import type { KeyValueStore, MemoryStore } from '@dchub/core';

/** Cached answers and their derive indexes (not the ledgers, not claims): what the replica's memory keeps. */
const MIRRORED_PREFIX = 'dchub:c:';

/**
 * The team's RedisStore, telling the gateway of every failed command. Core's cache swallows a
 * failed read or write of an answer and its relay turns other failures into a 502; the call's
 * context learns here that Redis, not the service, failed, so the gateway answers it again from
 * its own memory instead (failover.ts). That memory (a bounded LRU) keeps a copy of the answers
 * this replica read or wrote through Redis, so that without Redis it still answers what its
 * callers asked lately, at no cost to the allowance.
 */
export class WatchedStore implements KeyValueStore {
  readonly shared = true;
  readonly claim?: KeyValueStore['claim'];

  constructor(
    private readonly inner: KeyValueStore,
    private readonly onFailure: (err: Error) => void,
    private readonly memory?: MemoryStore,
  ) {
    const claim = inner.claim?.bind(inner);
    if (claim)
      this.claim = async (key, opts) => {
        const got = await this.#watch(() => claim(key, opts));
        return typeof got === 'function' ? () => this.#watch(got) : got;
      };
  }

  async #watch<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      this.onFailure(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  }

  #keep(key: string, value: string | undefined): void {
    if (!this.memory || !key.startsWith(MIRRORED_PREFIX)) return;
    if (value === undefined) this.memory.getSync(key);
    else this.memory.setSync(key, value);
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#watch(() => this.inner.get(key));
    this.#keep(key, value);
    return value;
  }
  async set(key: string, value: string): Promise<void> {
    this.#keep(key, value);
    await this.#watch(() => this.inner.set(key, value));
  }
  async delete(key: string): Promise<void> {
    if (key.startsWith(MIRRORED_PREFIX)) await this.memory?.delete(key);
    await this.#watch(() => this.inner.delete(key));
  }
  keys(prefix: string): Promise<string[]> {
    return this.#watch(() => this.inner.keys(prefix));
  }
  async update(key: string, change: (current: string | undefined) => string | undefined): Promise<void> {
    let written: string | undefined;
    await this.#watch(() => this.inner.update!(key, (current) => (written = change(current))));
    if (written !== undefined) this.#keep(key, written);
  }
}
