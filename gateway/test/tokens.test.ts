import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { runGatewayCli } from '../src/cli.js';
import { hashToken } from '../src/tokens.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { startReplica, type Replica } from './support/replicas.js';

/**
 * The token commands (`dchub-gateway token add | revoke | list`) against a real redis-server, and
 * a replica process using the tokens they make: only hashes are stored, a revocation holds from
 * the next call, the list shows names and figures, never a token.
 */
const ORG_KEY = 'tokens-org-canary-key-6b2d';
const BIN = path.resolve(import.meta.dirname, '../dist/bin.js');
const TOKEN_SHAPE = /^dchg_[A-Za-z0-9_-]{43}$/;

let sb: RunningSandbox;
let redis: TestRedis;
let replica: Replica;
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  env = { REDIS_URL: redis.url, DCHUB_UPSTREAM_URL: sb.url, DCHUB_UPSTREAM_KEY: ORG_KEY, DCHUB_UPSTREAM_TIER: 'pro' };
  replica = await startReplica(env);
}, 60_000);

afterAll(async () => {
  await replica?.stop();
  await redis?.close();
  await sb?.close();
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runGatewayCli(args, env, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

/** Every key and value Redis holds (strings and hashes), to look for a token in. */
async function everythingInRedis(): Promise<string> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const parts: string[] = [];
    for await (const keys of client.scanIterator({ COUNT: 100 }))
      for (const key of keys) {
        parts.push(key);
        const type = await client.type(key);
        if (type === 'string') parts.push(String(await client.get(key)));
        if (type === 'hash') parts.push(JSON.stringify(await client.hGetAll(key)));
      }
    return parts.join('\n');
  } finally {
    await client.close();
  }
}

const ask = (token: string, p = '/api/v1/stats') => fetch(`${replica.url}${p}`, { headers: { 'X-API-Key': token } });

describe('token add', () => {
  let token = '';

  it('prints the new token as its only line of stdout, and stores only its hash', async () => {
    const r = await cli('token', 'add', 'analyst-t', '--daily-share', '3');
    expect(r.code).toBe(0);
    expect(r.out.endsWith('\n')).toBe(true);
    expect(r.out.split('\n').filter(Boolean)).toHaveLength(1);
    token = r.out.trim();
    expect(token).toMatch(TOKEN_SHAPE);
    const stored = await everythingInRedis();
    expect(stored).toContain(hashToken(token));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(5, 25));
    expect((await ask(token)).status).toBe(200);
  });

  it('through the real bin: stdout is the token and nothing else (the log stays quiet)', () => {
    const r = spawnSync(process.execPath, [BIN, 'token', 'add', 'analyst-bin'], {
      env: { ...process.env, ...env, DCHUB_GATEWAY_LOG_LEVEL: 'debug' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^dchg_[A-Za-z0-9_-]{43}\n$/);
    expect(r.stderr).toBe('');
  });

  it('refuses a name in use, a bad name and a bad share, in one line each (exit 2)', async () => {
    for (const args of [
      ['analyst-t'],
      ['no spaces allowed'],
      ['analyst-u', '--daily-share', '0'],
      ['analyst-u', '--daily-share'],
    ]) {
      const r = await cli('token', 'add', ...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('list shows each name with calls and upstream requests today, share and share left, never a token', async () => {
    expect((await ask(token, '/api/v1/markets?limit=5')).status).toBe(200);
    const r = await cli('token', 'list');
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/dchg_/);
    const rows = r.out
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows[0]).toEqual(['name', 'calls_today', 'upstream_today', 'share', 'share_left']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['analyst-bin', 'analyst-t']);
    // two calls (stats, markets), each a first question: two upstream requests against a share of 3
    expect(rows.find((row) => row[0] === 'analyst-t')).toEqual(['analyst-t', '2', '2', '3', '1']);
    expect(rows.find((row) => row[0] === 'analyst-bin')).toEqual(['analyst-bin', '0', '0', '-', '-']);
  });

  it('revoke works mid-session: the next call with the token gets 401', async () => {
    expect((await ask(token)).status).toBe(200);
    const r = await cli('token', 'revoke', 'analyst-t');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/revoked analyst-t/);
    const next = await ask(token);
    expect(next.status).toBe(401);
    expect(await next.json()).toMatchObject({ error: 'invalid_api_key' });
    expect((await cli('token', 'list')).out).not.toContain('analyst-t');
    const again = await cli('token', 'revoke', 'analyst-t');
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/no token named analyst-t/);
  });
});
