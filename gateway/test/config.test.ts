import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGatewayCli } from '../src/cli.js';
import { loadConfig } from '../src/config.js';

/**
 * The configuration is checked whole at start: a bad value stops `serve` with one line naming the
 * variable, exit 2, nothing on stdout and never the key (no Redis is needed to refuse).
 */
const KEY = 'config-canary-org-key-e0f1';
const BIN = path.resolve(import.meta.dirname, '../dist/bin.js');

async function serveWith(env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runGatewayCli(
    ['serve'],
    { DCHUB_UPSTREAM_KEY: KEY, ...env },
    {
      out: (s) => (out += s),
      err: (s) => (err += s),
    },
  );
  return { code, out, err };
}

describe('a bad value stops the start with one clear line (exit 2)', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ DCHUB_GATEWAY_PORT: '70000' }, /^dchub-gateway: DCHUB_GATEWAY_PORT: /],
    [{ DCHUB_GATEWAY_PORT: 'eighty' }, /^dchub-gateway: DCHUB_GATEWAY_PORT: /],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /^dchub-gateway: REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL$/],
    [{ REDIS_CACHE_URL: 'redis//nope' }, /^dchub-gateway: REDIS_CACHE_URL: /],
    [{ DCHUB_UPSTREAM_URL: 'ftp://dchub.cloud' }, /^dchub-gateway: DCHUB_UPSTREAM_URL: must be an http\(s\) URL/],
    [
      { DCHUB_UPSTREAM_URL: 'https://user:pw@dchub.cloud' },
      /^dchub-gateway: DCHUB_UPSTREAM_URL: .*without credentials/,
    ],
    [{ DCHUB_GATEWAY_DEGRADED_FRACTION: '0.9' }, /DEGRADED_FRACTION: must be at most 0.5: several replicas/],
    [{ DCHUB_GATEWAY_DEGRADED_FRACTION: '0' }, /^dchub-gateway: DCHUB_GATEWAY_DEGRADED_FRACTION: must be above 0$/],
    [
      { DCHUB_GATEWAY_CORS_ORIGINS: 'addin.example.com' },
      /^dchub-gateway: DCHUB_GATEWAY_CORS_ORIGINS: must be origins/,
    ],
    [{ DCHUB_GATEWAY_BODY_LIMIT: '10' }, /^dchub-gateway: DCHUB_GATEWAY_BODY_LIMIT: /],
    [{ DCHUB_GATEWAY_DRAIN_SECONDS: '-1' }, /^dchub-gateway: DCHUB_GATEWAY_DRAIN_SECONDS: /],
    [{ DCHUB_GATEWAY_LOG_LEVEL: 'loud' }, /^dchub-gateway: DCHUB_GATEWAY_LOG_LEVEL: /],
    [{ DCHUB_GATEWAY_DERIVE: 'sometimes' }, /^dchub-gateway: DCHUB_GATEWAY_DERIVE: /],
    [{ DCHUB_GATEWAY_DEFAULT_SHARE: '-5' }, /^dchub-gateway: DCHUB_GATEWAY_DEFAULT_SHARE: /],
    [{ DCHUB_GATEWAY_METRICS_TOKEN: 'short' }, /^dchub-gateway: DCHUB_GATEWAY_METRICS_TOKEN: must be at least 16/],
    [{ DCHUB_GATEWAY_OIDC_ISSUER: 'https://login.example.com' }, /OIDC needs DCHUB_GATEWAY_OIDC_ISSUER, _AUDIENCE/],
    [{ DCHUB_UPSTREAM_KEY_FILE: '/nonexistent/dchub.key' }, /^dchub-gateway: DCHUB_UPSTREAM_KEY_FILE: cannot read /],
  ];

  it.each(cases)('%j', async (env, line) => {
    const r = await serveWith(env);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.err.trimEnd()).toMatch(line);
    expect(r.err).not.toContain(KEY);
  });

  it('a malformed key is refused without being repeated', async () => {
    const bad = 'canary-key\u0007-with-a-bell';
    const r = await serveWith({ DCHUB_UPSTREAM_KEY: bad });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dchub-gateway: DCHUB_UPSTREAM_KEY/);
    expect(r.err).not.toContain('canary');
  });

  it('through the real bin: exit 2, one line on stderr, nothing on stdout', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve'], {
      env: { PATH: process.env.PATH, DCHUB_UPSTREAM_KEY: KEY, DCHUB_GATEWAY_DEGRADED_FRACTION: '2' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'dchub-gateway: DCHUB_GATEWAY_DEGRADED_FRACTION: must be at most 0.5: several replicas without Redis must never spend the whole allowance',
    ]);
  });
});

describe('good values', () => {
  it('are read with their defaults, the key from a file, empty variables as unset', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dchub-gw-config-'));
    try {
      const file = path.join(dir, 'key');
      writeFileSync(file, `${KEY}\n`);
      const c = loadConfig({
        DCHUB_UPSTREAM_KEY_FILE: file,
        DCHUB_GATEWAY_CORS_ORIGINS: 'https://addin.example.com/, https://hub.example.org',
        DCHUB_GATEWAY_PORT: '',
      });
      expect(c.upstreamKey).toBe(KEY);
      expect(c.DCHUB_GATEWAY_PORT).toBe(8790);
      expect(c.DCHUB_GATEWAY_HOST).toBe('127.0.0.1');
      expect(c.DCHUB_GATEWAY_DEGRADED_FRACTION).toBe(0.05);
      expect(c.DCHUB_GATEWAY_DRAIN_SECONDS).toBe(10);
      expect(c.DCHUB_GATEWAY_CORS_ORIGINS).toEqual(['https://addin.example.com', 'https://hub.example.org']);
      expect(c.DCHUB_GATEWAY_METRICS_TOKEN).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
