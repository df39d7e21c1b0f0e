import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { MemoryStore, callerLedgerId, createCallerClient, siteScore } from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/** The one client factory of the hosts: client, cached answers and ledger in one store, per caller. */
describe.each(SANDBOX_PROFILES)('the caller client (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const PRO = 'connect-pro-key-secret';
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, profile, seed: 'connect', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO}` });
  });
  afterAll(() => sb?.close());

  describe('createCallerClient', () => {
    it('names the ledger by service host and key fingerprint, never the key', () => {
      const id = callerLedgerId(sb.url, PRO);
      expect(id).toMatch(new RegExp(`^127\\.0\\.0\\.1:${sb.port}:k[0-9a-z]+$`));
      expect(id).not.toContain(PRO);
      expect(callerLedgerId(sb.url, undefined)).toBe(`127.0.0.1:${sb.port}:anon`);
      expect(callerLedgerId('http://other.example', PRO)).not.toBe(id);
    });

    it('keeps answers and the ledger in the store: a second client on the same store (a restart) sends nothing and counts on', async () => {
      const store = new MemoryStore();
      const first = createCallerClient({ baseUrl: sb.url, apiKey: PRO, store });
      expect(first.client.callerId).not.toContain(PRO);
      expect(await first.ledger.snapshot()).toMatchObject({ tier: 'free', confirmed: false });
      const a = await siteScore(first.client, { lat: 39.04, lon: -77.49 });
      expect(await first.ledger.snapshot()).toMatchObject({ tier: 'pro', confirmed: true, used: 1 });
      const second = createCallerClient({ baseUrl: sb.url, apiKey: PRO, store });
      const b = await siteScore(second.client, { lat: 39.04, lon: -77.49 });
      expect(b).toEqual(a);
      expect(second.client.requestsSent).toBe(0);
      expect(await second.ledger.snapshot()).toMatchObject({ tier: 'pro', used: 1 });
      const stored = await Promise.all((await store.keys('')).map(async (k) => k + (await store.get(k))));
      expect(stored.join('\n')).not.toContain(PRO);
    });

    it('cache off: every call sent, the ledger still kept; keyless callers are anonymous, assumed until the service states a limit; a named ledger keeps its name', async () => {
      const store = new MemoryStore();
      const { client, ledger } = createCallerClient({ baseUrl: sb.url, store, cache: false });
      expect(client.cache).toBeUndefined();
      expect(await ledger.snapshot()).toMatchObject({ tier: 'anonymous', confirmed: false });
      await siteScore(client, { lat: 40, lon: -80 });
      await siteScore(client, { lat: 40, lon: -80 });
      expect(client.requestsSent).toBe(2);
      // The spec's service states the keyless limit (X-RateLimit-Limit with a reset); the real one states none (notes
      // §1.5).
      expect(await ledger.snapshot()).toMatchObject({ tier: 'anonymous', confirmed: profile === 'spec', used: 2 });
      const named = createCallerClient({ baseUrl: sb.url, store: new MemoryStore(), ledgerId: 'named-ledger' });
      expect(named.ledgerId).toBe('named-ledger');
      expect(await named.ledger.snapshot()).toMatchObject({ tier: 'anonymous', confirmed: false, used: 0 });
      const stated = createCallerClient({ baseUrl: sb.url, apiKey: PRO, tier: 'pro', store: new MemoryStore() });
      expect(await stated.ledger.snapshot()).toMatchObject({ tier: 'pro', confirmed: true, limit: 2000 });
    });
  });
});
