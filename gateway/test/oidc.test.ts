import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { startGateway, type RunningGateway } from '../src/server.js';
import { freePort, startRedis, type TestRedis } from './support/redis.js';
import { addToken } from './support/replicas.js';

/**
 * OIDC bearer tokens (jose) against a local JWKS served on loopback: the issuer, audience,
 * signature and expiry checked; a subject a caller with DCHUB_GATEWAY_DEFAULT_SHARE; no Redis
 * needed to verify one.
 */
const ORG_KEY = 'oidc-org-canary-key-2a7c';
const ISSUER = 'https://login.example.com/tenant-1/v2.0';
const AUDIENCE = 'api://dchub-gateway';
const KID = 'test-key-1';

let sb: RunningSandbox;
let redis: TestRedis;
let jwksServer: Server;
let jwksUrl: string;
let signing: CryptoKey;
let stranger: CryptoKey;
let gw: RunningGateway;
let env: Record<string, string>;
const extra: RunningGateway[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'gateway', now: '2026-11-21T12:00:00Z', keys: `pro=${ORG_KEY}` });
  redis = await startRedis();
  const pair = await generateKeyPair('RS256', { extractable: true });
  signing = pair.privateKey;
  stranger = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/keys`;
  env = {
    REDIS_URL: redis.url,
    DCHUB_UPSTREAM_URL: sb.url,
    DCHUB_UPSTREAM_KEY: ORG_KEY,
    DCHUB_UPSTREAM_TIER: 'pro',
    DCHUB_GATEWAY_PORT: '0',
    DCHUB_GATEWAY_DEFAULT_SHARE: '2',
    DCHUB_GATEWAY_OIDC_ISSUER: ISSUER,
    DCHUB_GATEWAY_OIDC_AUDIENCE: AUDIENCE,
    DCHUB_GATEWAY_OIDC_JWKS_URL: jwksUrl,
  };
  gw = await startGateway(loadConfig(env), { log: createLogger('silent') });
  const until = Date.now() + 10_000;
  while (!gw.gateway.sharedUsable && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
}, 60_000);

afterAll(async () => {
  await Promise.all([gw, ...extra].map((g) => g?.close()));
  await new Promise((r) => jwksServer?.close(r));
  await redis?.close();
  await sb?.close();
});

interface Claims {
  sub?: string;
  iss?: string;
  aud?: string;
  exp?: string | number;
  key?: CryptoKey;
  name?: string;
}

function jwt(c: Claims = {}): Promise<string> {
  return new SignJWT({ preferred_username: c.name ?? 'ana@example.com' })
    .setProtectedHeader({ alg: 'RS256', kid: KID })
    .setIssuer(c.iss ?? ISSUER)
    .setAudience(c.aud ?? AUDIENCE)
    .setSubject(c.sub ?? 'subject-ana')
    .setIssuedAt()
    .setExpirationTime(c.exp ?? '5m')
    .sign(c.key ?? signing);
}

const ask = (bearer: string, path = '/api/v1/stats', g = gw) =>
  fetch(`${g.url}${path}`, { headers: { Authorization: `Bearer ${bearer}` } });

async function refusedWith(bearer: string): Promise<string> {
  const r = await ask(bearer);
  expect(r.status).toBe(401);
  const body = (await r.json()) as { error: string; message: string };
  expect(body.error).toBe('invalid_api_key');
  return body.message;
}

describe('OIDC bearer tokens', () => {
  it("pass when signed by the identity provider's key, for this issuer and audience", async () => {
    const r = await ask(await jwt());
    expect(r.status).toBe(200);
    expect(r.headers.get('x-dchub-share-limit')).toBe('2'); // DCHUB_GATEWAY_DEFAULT_SHARE
  });

  it('map a subject to a caller: its name in the metrics, its share counted across tokens', async () => {
    // A later token of the same subject shares the share: 2 upstream requests a day.
    expect((await ask(await jwt({ sub: 'subject-bo', name: 'bo' }), '/api/v1/markets?limit=31')).status).toBe(200);
    expect((await ask(await jwt({ sub: 'subject-bo', name: 'bo' }), '/api/v1/markets?limit=32')).status).toBe(200);
    const third = await ask(await jwt({ sub: 'subject-bo', name: 'bo' }), '/api/v1/markets?limit=33');
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toMatch(/daily share of 2 upstream requests of bo/);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/dchub_gateway_caller_requests_total\{caller="bo"} 3/);
    expect(metrics).toMatch(/dchub_gateway_caller_requests_total\{caller="ana@example.com"} 1/);
  });

  it('are refused (401, saying why) with another audience or issuer, expired, or signed by another key', async () => {
    expect(await refusedWith(await jwt({ aud: 'api://something-else' }))).toMatch(/aud claim/);
    expect(await refusedWith(await jwt({ iss: 'https://evil.example.com' }))).toMatch(/iss claim/);
    expect(await refusedWith(await jwt({ exp: Math.floor(Date.now() / 1000) - 3600 }))).toMatch(/expired/);
    expect(await refusedWith(await jwt({ key: stranger }))).toMatch(/not signed by a key/);
  });

  it('never pass unsigned (alg none) or with a shared secret (HS256)', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = { iss: ISSUER, aud: AUDIENCE, sub: 'subject-ana', exp: Math.floor(Date.now() / 1000) + 300 };
    await refusedWith(`${b64({ alg: 'none' })}.${b64(claims)}.`);
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: KID })
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
    await refusedWith(hs);
  });

  it('leave gateway tokens working beside them', async () => {
    const token = await addToken(env, 'analyst-o');
    expect((await fetch(`${gw.url}/api/v1/stats`, { headers: { 'X-API-Key': token } })).status).toBe(200);
  });

  it('get a 503 when the identity provider cannot be reached to check them', async () => {
    const port = await freePort();
    const other = await startGateway(
      loadConfig({ ...env, DCHUB_GATEWAY_OIDC_JWKS_URL: `http://127.0.0.1:${port}/keys` }),
      { log: createLogger('silent') },
    );
    extra.push(other);
    const r = await ask(await jwt(), '/api/v1/stats', other);
    expect(r.status).toBe(503);
    expect(((await r.json()) as { message: string }).message).toMatch(/identity provider cannot be reached/);
  });

  it('pass without Redis (the identity provider vouches), answered from the replica memory, marked', async () => {
    await redis.stop();
    try {
      const r = await ask(await jwt({ sub: 'subject-cy', name: 'cy' }));
      expect(r.status).toBe(200);
      expect(r.headers.get('x-dchub-notice')).toMatch(/Redis unreachable/);
    } finally {
      await redis.start();
    }
  });
});
