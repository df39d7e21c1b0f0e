import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fingerprint } from './keys.js';
import type { KeyValueStore } from './store.js';

/** Longest file name stem; a longer key keeps its start and adds a fingerprint of the whole key. */
const NAME_MAX = 180;

/**
 * The file of a key: `encodeURIComponent(key)` with `%` → `_`; past 180 characters, the first 160
 * and `~` and the key's fingerprint, so two long keys that start alike never share a file. (The
 * Python API names files the same way.)
 */
export function fileNameOf(key: string): string {
  const name = encodeURIComponent(key).replace(/%/g, '_');
  return `${name.length > NAME_MAX ? `${name.slice(0, 160)}~${fingerprint(key)}` : name}.json`;
}

/** A directory of files, one per key (Node: the CLI and tests). Writes are atomic (temp + rename). */
export class DirectoryStore implements KeyValueStore {
  /** The CLI, kernels and the Jupyter relay on one machine share a directory. */
  readonly shared = true;
  constructor(readonly dir: string) {}

  #file(key: string): string {
    return path.join(this.dir, fileNameOf(key));
  }
  async get(key: string): Promise<string | undefined> {
    try {
      const raw = JSON.parse(await readFile(this.#file(key), 'utf8')) as { key: string; value: string };
      return raw.key === key ? raw.value : undefined;
    } catch {
      return undefined;
    }
  }
  async set(key: string, value: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.#file(key);
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify({ key, value }));
    await rename(tmp, file);
  }
  async delete(key: string): Promise<void> {
    await rm(this.#file(key), { force: true });
  }
  async keys(prefix: string): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const keys: string[] = [];
    for (const n of names.filter((f) => f.endsWith('.json'))) {
      try {
        const raw = JSON.parse(await readFile(path.join(this.dir, n), 'utf8')) as { key: string };
        if (raw.key.startsWith(prefix)) keys.push(raw.key);
      } catch {
        /* a file being written, or not ours */
      }
    }
    return keys;
  }
}
