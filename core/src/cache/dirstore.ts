import { chmod, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { fingerprint } from './keys.js';
import type { KeyValueStore } from './store.js';

/** Longest file name stem; a longer key keeps its start and adds a fingerprint of the whole key. */
const NAME_MAX = 180;
/** A temp file older than this belongs to a writer that died (a write takes milliseconds). */
const STALE_TEMP_MS = 5 * 60_000;
/** A fetch lock not refreshed for this long belongs to a process that died. */
const FETCH_STALE_MS = 5_000;
/** How long a process waits for another's lock on one file (the lock is held for a read and a write only). */
const LOCK_WAIT_MS = 10_000;

/**
 * The file of a key: `encodeURIComponent(key)` with `%` → `_`; past 180 characters, the first 160
 * and `~` and the key's fingerprint, so two long keys that start alike never share a file.
 */
export function fileNameOf(key: string): string {
  const name = encodeURIComponent(key).replace(/%/g, '_');
  return `${name.length > NAME_MAX ? `${name.slice(0, 160)}~${fingerprint(key)}` : name}.json`;
}

/** Errors that say the directory cannot be written (not a bug of ours): then answers stay in memory. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EEXIST']);

/**
 * A directory of files, one per key (the CLI, the Python API's engine and the Jupyter relay share
 * one): writes are atomic (temp + rename), files are the user's alone (0600 in a 0700 directory),
 * a read-modify-write (the ledger, the index of wide answers) holds a lock across processes around
 * the read and the write only, and temp files of writers that died are removed. When the disk says
 * no (read-only, full, not ours), the store keeps what it is given in memory for this process and
 * says so once through `onUnwritable` — answering is never refused for want of a cache.
 */
export class DirectoryStore implements KeyValueStore {
  /** The CLI, kernels and the Jupyter relay on one machine share a directory. */
  readonly shared = true;
  /** Set when the directory could not be written: what it holds since lives in `#memory`. */
  unwritable: string | undefined;
  readonly #memory = new Map<string, string>();
  #swept = false;

  constructor(
    readonly dir: string,
    private readonly opts: { onUnwritable?: (why: string) => void } = {},
  ) {}

  #file(key: string): string {
    return path.join(this.dir, fileNameOf(key));
  }

  async get(key: string): Promise<string | undefined> {
    if (this.#memory.has(key)) return this.#memory.get(key);
    try {
      const raw = JSON.parse(await readFile(this.#file(key), 'utf8')) as { key: string; value: string };
      return raw.key === key ? raw.value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: string): Promise<void> {
    if (this.unwritable) {
      this.#memory.set(key, value);
      return;
    }
    try {
      await this.#write(key, value);
    } catch (err) {
      this.#giveUp(err);
      this.#memory.set(key, value);
    }
  }

  /** Writes one file atomically; a failed write leaves no temp file behind. */
  async #write(key: string, value: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (!this.#swept) {
      // Once per process: what a killed writer left behind goes, and files of older versions become the user's alone.
      this.#swept = true;
      await this.sweepTemp();
      await this.tighten();
    }
    const file = this.#file(key);
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify({ key, value }), { mode: 0o600 });
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  /** From here on, answers and the ledger live in memory: the disk refused (once said, through onUnwritable). */
  #giveUp(err: unknown): void {
    const code = (err as NodeJS.ErrnoException | null)?.code ?? 'error';
    if (!UNWRITABLE.has(code)) throw err;
    if (this.unwritable) return;
    const what = code === 'ENOSPC' || code === 'EDQUOT' ? 'the disk is full' : 'it is not writable';
    this.unwritable = `cannot write the cache directory ${this.dir} (${code}: ${what}); answers are not cached and today's calls are counted in memory for this process only — free space, fix its permissions, or choose another with --cache-dir / DCHUB_CACHE_DIR`;
    this.opts.onUnwritable?.(this.unwritable);
  }

  /**
   * Reads, changes and writes one value with the file locked against every other process (and
   * this one): `change` gets the current text and returns the new one (undefined: leave it).
   */
  async update(key: string, change: (current: string | undefined) => string | undefined): Promise<void> {
    if (this.unwritable) {
      const next = change(this.#memory.get(key));
      if (next !== undefined) this.#memory.set(key, next);
      return;
    }
    const file = this.#file(key);
    let release: () => Promise<void>;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      release = await lockfile.lock(file, {
        realpath: false,
        stale: LOCK_WAIT_MS,
        retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, maxRetryTime: LOCK_WAIT_MS },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'ELOCKED')
        throw new Error(
          `the cache directory ${this.dir} stayed locked for ${LOCK_WAIT_MS / 1000} s (${fileNameOf(key)})`,
        );
      this.#giveUp(err);
      return this.update(key, change);
    }
    try {
      const next = change(await this.get(key));
      if (next !== undefined) await this.#write(key, next);
    } catch (err) {
      this.#giveUp(err);
      const next = change(this.#memory.get(key));
      if (next !== undefined) this.#memory.set(key, next);
    } finally {
      await release().catch(() => undefined);
    }
  }

  /**
   * One process fetches a key at a time (a lock beside its file, refreshed while held, stale after a
   * few seconds when its holder died); the others wait for it to finish, polling, at most `waitMs`.
   */
  async claim(key: string, opts: { waitMs: number; signal?: AbortSignal }): Promise<(() => Promise<void>) | 'waited'> {
    if (this.unwritable) return async () => undefined;
    const target = `${this.#file(key)}.fetch`;
    const lockOpts = { realpath: false, stale: FETCH_STALE_MS, lockfilePath: `${target}.lock` };
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const release = await lockfile.lock(target, { ...lockOpts, retries: 0 });
      return () => release().catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException | null)?.code !== 'ELOCKED') return async () => undefined; // no lock: just fetch
    }
    const until = Date.now() + opts.waitMs;
    while (Date.now() < until && !opts.signal?.aborted) {
      await new Promise((r) => setTimeout(r, 40));
      const held = await lockfile.check(target, lockOpts).catch(() => false);
      if (!held) break;
    }
    return 'waited';
  }

  async delete(key: string): Promise<void> {
    this.#memory.delete(key);
    await rm(this.#file(key), { force: true }).catch(() => undefined);
  }

  async keys(prefix: string): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      names = [];
    }
    const keys = new Set([...this.#memory.keys()].filter((k) => k.startsWith(prefix)));
    for (const n of names.filter((f) => f.endsWith('.json'))) {
      try {
        const raw = JSON.parse(await readFile(path.join(this.dir, n), 'utf8')) as { key: string };
        if (raw.key.startsWith(prefix)) keys.add(raw.key);
      } catch {
        /* a file being written, or not ours */
      }
    }
    return [...keys];
  }

  /** Removes temp files left by writers that died (older than a few minutes); how many were removed. */
  async sweepTemp(now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const n of names.filter((f) => f.endsWith('.tmp'))) {
      const p = path.join(this.dir, n);
      const at = await stat(p).then(
        (s) => s.mtimeMs,
        () => now,
      );
      if (
        now - at > STALE_TEMP_MS &&
        (await rm(p, { force: true }).then(
          () => true,
          () => false,
        ))
      )
        removed++;
    }
    return removed;
  }

  /** The directory and its files made the user's alone (directories written by older versions were 0755/0644). */
  async tighten(): Promise<void> {
    await chmod(this.dir, 0o700).catch(() => undefined);
    for (const n of await readdir(this.dir).catch(() => [] as string[])) {
      if (n.endsWith('.json')) await chmod(path.join(this.dir, n), 0o600).catch(() => undefined);
    }
  }
}
