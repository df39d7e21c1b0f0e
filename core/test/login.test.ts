import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { runCli } from '../src/cli/main.js';
import { credentialsFile, loadStoredKey } from '../src/credentials.js';

/**
 * Issue 20: keys where command-line users expect them. `dchub login` stores a key (the OS credential
 * store, else a 0600 file in the config directory), every later call finds it, `--api-key-file`
 * reads one quietly, `--api-key` still works with a warning, `dchub logout` forgets it; a malformed
 * key is refused at every entry without being repeated.
 */
let sb: RunningSandbox;
let home: string;
const PRO = 'login-pro-key-0001';

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'login', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
  home = await mkdtemp(path.join(os.tmpdir(), 'dchub-login-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(home, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    DCHUB_CACHE_DIR: path.join(home, 'cache'),
    DCHUB_BASE_URL: sb.url,
  };
  const code = await runCli(args, { out: (s) => (out += s), err: (s) => (err += s), env });
  return { code, out, err, all: out + err };
}

describe('dchub login and logout', () => {
  it('stores a key read from a file, finds it for later calls, forgets it on logout', async () => {
    const file = path.join(home, 'key.txt');
    await writeFile(file, `  ${PRO}\n`);
    const login = await cli('login', '--api-key-file', file);
    expect(login.code, login.err).toBe(0);
    expect(login.all).not.toContain(PRO);
    const env = { XDG_CONFIG_HOME: path.join(home, 'config'), HOME: home };
    expect(await loadStoredKey(sb.url, env)).toBe(PRO);
    if (login.out.includes('credentials.json')) {
      // No credential store on this machine: a file only the user can read, in a directory only they can enter.
      const f = credentialsFile(env);
      expect((await stat(f)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(f))).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await readFile(f, 'utf8'))).toEqual({ keys: { [new URL(sb.url).origin]: PRO } });
    }
    // The next call is the Pro key's, without a flag or the environment.
    await cli('news', '--limit', '1');
    const quota = await cli('quota', '--format', 'json');
    expect(JSON.parse(quota.out)).toMatchObject({ tier: 'pro', confirmed: true });
    const logout = await cli('logout');
    expect(logout.out).toMatch(/^Forgot the stored key for /);
    expect(await loadStoredKey(sb.url, env)).toBeUndefined();
    expect((await cli('logout')).out).toMatch(/^No key was stored/);
  });

  it('--api-key works, with one line saying others can see it; --api-key-file says nothing', async () => {
    const flag = await cli('news', '--limit', '2', '--api-key', PRO);
    expect(flag.code).toBe(0);
    expect(flag.err.match(/--api-key is visible to other users of this machine/g)).toHaveLength(1);
    const file = path.join(home, 'key2.txt');
    await writeFile(file, PRO);
    const quiet = await cli('news', '--limit', '3', '--api-key-file', file);
    expect(quiet.code).toBe(0);
    expect(quiet.err).not.toMatch(/visible/);
  });

  it('refuses a malformed key at every entry, naming the fault and never the key', async () => {
    const bad = `${PRO}\nX-Evil: 1`;
    const file = path.join(home, 'bad.txt');
    await writeFile(file, bad);
    for (const args of [
      ['login', '--api-key-file', file],
      ['news', '--api-key-file', file],
      ['news', '--api-key', bad],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/contains a line break — check how it was pasted/);
      expect(r.all).not.toContain(PRO);
    }
    expect((await cli('news', '--api-key-file', path.join(home, 'missing.txt'))).err).toMatch(
      /--api-key-file: cannot read/,
    );
  });
});
