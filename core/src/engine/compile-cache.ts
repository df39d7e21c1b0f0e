// V8's compile cache for core's Node entry points (the Python package's engine, the `dchub` CLI): the code V8
// compiled for the bundle is kept on disk, so the next process parses and compiles almost nothing. Node ≥ 22.1 has
// it (`module.enableCompileCache`); on Node 20 this does nothing. Kept out of the rest of core so that an entry can
// call it before it imports anything else (what is imported before the cache is on is compiled without it).
import * as nodeModule from 'node:module';
import path from 'node:path';
import { defaultCacheDir } from '../cache/default-dir.js';

/** The sub-directory of the user's cache directory that holds it (Node adds one per Node version inside). */
export const COMPILE_CACHE_DIR = 'node-compile-cache';

/** What `useCompileCache` did: `on` (enabled or already on), `off` (not offered, or refused), `failed` (with why). */
export interface CompileCacheState {
  state: 'on' | 'off' | 'failed';
  directory?: string;
  why?: string;
}

interface CompileCacheApi {
  enableCompileCache?: (dir?: string) => { status: number; message?: string; directory?: string };
  flushCompileCache?: () => void;
  constants?: { compileCacheStatus?: Record<string, number> };
}

/**
 * Turns the compile cache on, in the user's cache directory (`~/.cache/dchub/node-compile-cache`): never in
 * `$DCHUB_CACHE_DIR`, which holds answers (and may be a directory a team shares), not compiled code. Never throws
 * and never writes to stdout: a directory that cannot be made or written (read-only, full, not ours) leaves the
 * process as it was, compiling as usual. `DCHUB_COMPILE_CACHE=0` (or Node's own `NODE_DISABLE_COMPILE_CACHE=1`)
 * turns it off. The cache is written when the process ends; `flush` writes it now (after the first answer, so that
 * an engine that is killed later has still left it).
 */
export function useCompileCache(env: Record<string, string | undefined> = process.env): CompileCacheState {
  const api = nodeModule as CompileCacheApi;
  if (typeof api.enableCompileCache !== 'function') return { state: 'off', why: 'this Node has no compile cache' };
  if (env.DCHUB_COMPILE_CACHE === '0') return { state: 'off', why: 'DCHUB_COMPILE_CACHE=0' };
  const wanted = path.join(defaultCacheDir(env), COMPILE_CACHE_DIR);
  try {
    const { status, message, directory } = api.enableCompileCache(wanted);
    const codes = api.constants?.compileCacheStatus ?? {};
    if (status === codes.ENABLED || status === codes.ALREADY_ENABLED) return { state: 'on', directory };
    if (status === codes.DISABLED) return { state: 'off', why: message ?? 'disabled' };
    return { state: 'failed', directory: wanted, why: message ?? `status ${status}` };
  } catch (err) {
    return { state: 'failed', directory: wanted, why: (err as Error).message };
  }
}

/** Writes what V8 has compiled so far to the cache now (Node ≥ 23; a no-op before, and on any error). */
export function flushCompileCache(): void {
  try {
    (nodeModule as CompileCacheApi).flushCompileCache?.();
  } catch {
    /* a cache that cannot be written is no reason to stop */
  }
}
