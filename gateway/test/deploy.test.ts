import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GatewayEnv } from '../src/config.js';

/**
 * The deployment files, checked offline (Docker does not run here): gateway/compose.yaml (two
 * replicas, Redis that never evicts and keeps an AOF, the key as a secret file, health checks,
 * Caddy in front), gateway/Dockerfile (node:20-slim, node not npm, a non-root user, a health check,
 * no secret baked in) and gateway/Caddyfile (both replicas behind active health checks).
 */

const DIR = path.resolve(import.meta.dirname, '..');
const read = (name: string) => readFileSync(path.join(DIR, name), 'utf8');

interface Service {
  build?: { context?: string; dockerfile?: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  stop_grace_period?: string;
  init?: boolean;
}
interface Compose {
  services: Record<string, Service>;
  secrets?: Record<string, { file?: string; environment?: string }>;
}

const compose = parse(read('compose.yaml'), { merge: true }) as Compose;
const gateways = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === 'gateway/Dockerfile');
const redis = compose.services.redis;

/** What the gateway reads from its environment: the schema's variables and the key's two. */
const ACCEPTED = new Set([...Object.keys(GatewayEnv.shape), 'DCHUB_UPSTREAM_KEY_FILE', 'DCHUB_UPSTREAM_KEY']);

/** `${VAR:-default}` as compose resolves it when VAR is unset. */
const resolveDefault = (v: string) => v.replace(/\$\{[A-Z0-9_]+:?-([^}]*)\}/g, '$1');

describe('compose.yaml', () => {
  it('runs two gateway replicas built from gateway/Dockerfile, with init and a stop grace past the drain', () => {
    expect(gateways.map(([name]) => name)).toEqual(['gateway-1', 'gateway-2']);
    for (const [, s] of gateways) {
      expect(s.init).toBe(true);
      const drain = Number(s.environment?.DCHUB_GATEWAY_DRAIN_SECONDS ?? 10);
      expect(Number.parseInt(s.stop_grace_period ?? '10s', 10)).toBeGreaterThan(drain);
      expect(s.ports ?? [], 'replicas are reached through the proxy only').toEqual([]);
    }
  });

  it('sets only variables the gateway accepts, with values its configuration schema takes', () => {
    for (const [name, s] of gateways) {
      const env = s.environment ?? {};
      expect(
        Object.keys(env).filter((k) => !ACCEPTED.has(k)),
        `${name}: unknown variables`,
      ).toEqual([]);
      const resolved = Object.fromEntries(
        Object.entries(env)
          .map(([k, v]) => [k, resolveDefault(String(v))])
          .filter(([, v]) => v !== ''),
      );
      const parsed = GatewayEnv.safeParse(resolved);
      expect(parsed.success, parsed.error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ')).toBe(
        true,
      );
      expect(parsed.data?.REDIS_URL).toBe('redis://redis:6379');
      expect(parsed.data?.DCHUB_GATEWAY_HOST).toBe('0.0.0.0');
    }
  });

  it("passes the organisation's key as a Docker secret file, never as an environment value", () => {
    for (const [name, s] of gateways) {
      const env = s.environment ?? {};
      expect(env.DCHUB_UPSTREAM_KEY, `${name} sets the key in its environment`).toBeUndefined();
      const secret = /^\/run\/secrets\/([\w.-]+)$/.exec(env.DCHUB_UPSTREAM_KEY_FILE ?? '')?.[1];
      expect(secret, `${name}: DCHUB_UPSTREAM_KEY_FILE names a secret`).toBeDefined();
      expect(s.secrets).toContain(secret);
      expect(compose.secrets?.[secret!]?.file).toBeTruthy();
    }
  });

  it('keeps Redis from evicting (the ledger and claims must stay) and persists it with an AOF', () => {
    const args = (redis.command ?? []).join(' ');
    expect(args).toMatch(/--maxmemory-policy noeviction\b/);
    expect(args).toMatch(/--appendonly yes\b/);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    for (const [, s] of gateways) expect(s.depends_on?.redis?.condition).toBe('service_healthy');
  });

  it('checks every replica by /healthz on its port; Caddy waits for them and alone publishes ports', () => {
    for (const [, s] of gateways) {
      const test = (s.healthcheck?.test ?? []).join(' ');
      expect(test).toContain(`http://127.0.0.1:${s.environment?.DCHUB_GATEWAY_PORT}/healthz`);
      expect(s.healthcheck?.test[0]).toBe('CMD');
    }
    const caddy = compose.services.caddy;
    for (const [name] of gateways) expect(caddy.depends_on?.[name]?.condition).toBe('service_healthy');
    expect(caddy.ports).toContain('443:443');
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['caddy']);
  });
});

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const all = instructions(read('Dockerfile'));
  const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
  const final = all.slice(lastFrom);

  it('builds and runs on node:20-slim, the runtime stage with production dependencies only', () => {
    expect(all.filter((i) => i.op === 'FROM').every((i) => i.args.startsWith('node:20-slim'))).toBe(true);
    const installs = final.filter((i) => i.op === 'RUN' && i.args.includes('npm ci'));
    expect(installs).toHaveLength(1);
    expect(installs[0].args).toContain('--omit=dev');
    expect(installs[0].args).toMatch(/-w core -w gateway/);
  });

  it('runs node itself (not npm) as a non-root user, with a health check on /healthz', () => {
    const cmd = final.filter((i) => i.op === 'CMD').at(-1);
    expect(JSON.parse(cmd!.args)).toEqual(['node', 'gateway/dist/bin.js', 'serve']);
    const user = final.filter((i) => i.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const health = final.find((i) => i.op === 'HEALTHCHECK');
    expect(health?.args).toMatch(/CMD \["node", "-e", .*\/healthz/);
    const port = GatewayEnv.shape.DCHUB_GATEWAY_PORT.parse(undefined);
    expect(final.find((i) => i.op === 'EXPOSE')?.args).toBe(String(port));
  });

  it('bakes in no key, token or secret', () => {
    const baked = all.filter((i) => ['ENV', 'ARG'].includes(i.op)).map((i) => i.args);
    for (const line of baked) expect(line).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD/i);
    const copied = all.filter((i) => i.op === 'COPY').map((i) => i.args);
    for (const line of copied) expect(line).not.toMatch(/secrets|\.env\b|credentials/);
  });

  it('gets every file it copies from the context past Dockerfile.dockerignore', () => {
    const allowed = read('Dockerfile.dockerignore')
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .map((l) => l.slice(1).replace(/\/$/, ''));
    const sources = all
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const src of sources) expect(allowed, `${src} is ignored`).toContain(src);
  });
});

describe('Caddyfile', () => {
  const caddy = read('Caddyfile');

  it('balances over every replica on its port, with active health checks', () => {
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddy)?.[1].trim().split(/\s+/);
    expect(upstreams).toEqual(gateways.map(([name, s]) => `${name}:${s.environment?.DCHUB_GATEWAY_PORT}`));
    expect(caddy).toMatch(/^\s*health_uri \/readyz$/m);
    expect(caddy).toMatch(/^\s*lb_try_duration \d+s$/m);
  });

  it('serves the domain compose passes it, and keeps gateway tokens out of its access log', () => {
    expect(compose.services.caddy.environment?.DCHUB_GATEWAY_DOMAIN).toBeDefined();
    expect(caddy).toMatch(/^\{\$DCHUB_GATEWAY_DOMAIN(:[^}]*)?\} \{$/m);
    expect(caddy).toMatch(/request>headers>X-Api-Key delete/);
  });
});
