import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryStore } from '../src/cache/dirstore.js';
import { ResponseCache } from '../src/cache/responses.js';

/** Issue 20: the cache directory on a shared machine — the user's files alone, no debris of dead writers. */
let dir: string;
beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'dchub-dirstore-')), 'cache');
});
afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

const mode = async (p: string) => (await stat(p)).mode & 0o777;

describe('DirectoryStore', () => {
  it('writes files 0600 in a 0700 directory, and tightens what an older version left 0755/0644', async () => {
    await mkdir(dir, { mode: 0o755 });
    await chmod(dir, 0o755);
    const old = path.join(dir, 'old.json');
    await writeFile(old, JSON.stringify({ key: 'old', value: 'v' }), { mode: 0o644 });
    await chmod(old, 0o644);
    const store = new DirectoryStore(dir);
    await store.set('dchub:quota:x', '{}');
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(old)).toBe(0o600);
    for (const f of await readdir(dir)) expect(await mode(path.join(dir, f)), f).toBe(0o600);
  });

  it('removes temp files of writers that died, on the first write and on clear; keeps a fresh one', async () => {
    await mkdir(dir, { recursive: true });
    const stale = path.join(dir, 'a.json.123.456.tmp');
    const fresh = path.join(dir, 'b.json.789.012.tmp');
    await writeFile(stale, 'half');
    await writeFile(fresh, 'half');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, tenMinutesAgo, tenMinutesAgo);
    const store = new DirectoryStore(dir);
    await store.set('dchub:c:k', '{"text":"x","storedAt":1,"expiresAt":2}');
    expect((await readdir(dir)).sort()).toEqual(expect.arrayContaining([path.basename(fresh)]));
    expect(await readdir(dir)).not.toContain(path.basename(stale));
    // Another dead writer later: `cache clear` sweeps it too.
    const later = path.join(dir, 'c.json.1.2.tmp');
    await writeFile(later, 'half');
    await utimes(later, tenMinutesAgo, tenMinutesAgo);
    expect(await new ResponseCache(new DirectoryStore(dir)).clear()).toBe(1);
    expect(await readdir(dir)).not.toContain(path.basename(later));
  });

  it('a locked update from many writers at once loses none of them', async () => {
    const stores = Array.from({ length: 8 }, () => new DirectoryStore(dir));
    await Promise.all(
      stores.flatMap((s) => Array.from({ length: 5 }, () => s.update('counter', (t) => String(Number(t ?? 0) + 1)))),
    );
    expect(await new DirectoryStore(dir).get('counter')).toBe('40');
  });
});
