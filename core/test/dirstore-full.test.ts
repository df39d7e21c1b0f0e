import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** A disk that fills up mid-write: half a temp file is written, then ENOSPC. */
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...fs,
    writeFile: async (file: string, data: string, opts?: object) => {
      if (String(file).endsWith('.tmp') && String(data).length > 100) {
        await fs.writeFile(file, String(data).slice(0, 50), opts);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return fs.writeFile(file, data, opts);
    },
  };
});

const { DirectoryStore } = await import('../src/cache/dirstore.js');
const base = await mkdtemp(path.join(os.tmpdir(), 'dchub-full-'));
afterAll(() => rm(base, { recursive: true, force: true }));

describe('a full disk', () => {
  it('leaves no temp file, keeps the answer in memory, and says so once', async () => {
    const said: string[] = [];
    const dir = path.join(base, 'cache');
    const store = new DirectoryStore(dir, { onUnwritable: (why) => said.push(why) });
    await store.set('small', 'v'); // a small write still fits
    const big = 'x'.repeat(500);
    await store.set('big', big);
    await store.set('big2', big);
    expect(await store.get('big')).toBe(big);
    expect(await store.get('small')).toBe('v');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(said).toEqual([
      expect.stringMatching(
        /^cannot write the cache directory .* \(ENOSPC: the disk is full\); answers are not cached/,
      ),
    ]);
  });
});
