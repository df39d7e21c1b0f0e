import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DchubClient, KeyClaimAnswer, ValidationError, claimKey } from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

/** One key-claim schema: core checks a claim before sending exactly as the sandbox's route refuses it. */
describe.each(SANDBOX_PROFILES)('key claim (%s profile)', (profile) => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, profile, seed: 'key-claim', now: '2026-11-21T12:00:00Z' });
  });
  afterAll(() => sb?.close());

  const post = async (body: unknown) => {
    const res = await fetch(`${sb.url}/api/v1/keys/claim`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  describe('the key-claim schema, once', () => {
    it.each([
      [{ client_name: 'x'.repeat(201) }, 'client_name'],
      [{ intended_use: 'x'.repeat(2001) }, 'intended_use'],
      [{ email: { nested: true } }, 'email'],
    ])('core refuses %j before sending, naming %s; the sandbox answers 400 naming the same', async (body, param) => {
      const client = new DchubClient({ baseUrl: sb.url });
      const err = await claimKey(client, body as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).param).toBe(param);
      expect(client.requestsSent).toBe(0);
      const served = await post(body);
      expect(served.status).toBe(400);
      expect(String(served.body.error)).toMatch(new RegExp(`^${param}:`));
    });

    it('what the sandbox issues reads with core’s answer schema; the same name gets the same key', async () => {
      const first = await post({ client_name: 'key-claim-test', intended_use: 'tests' });
      expect(first.status).toBe(200);
      expect(KeyClaimAnswer.safeParse(first.body).success).toBe(true);
      const again = await claimKey(new DchubClient({ baseUrl: sb.url }), { client_name: 'key-claim-test' });
      expect(again).toMatchObject({ ok: true, tier: 'free', reused: true, api_key: first.body.api_key });
    });
  });
});
