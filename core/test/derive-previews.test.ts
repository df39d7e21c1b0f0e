import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import * as core from '../src/index.js';
import { recordingClient, type RecordingOptions } from './support/recording-client.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('previews are never a superset (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const FREE = 'derive-previews-free';
  const DEV = 'derive-previews-developer';

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'derive-previews',
      now: '2026-11-21T12:00:00Z',
      keys: `free=${FREE},developer=${DEV}`,
      limits: false,
    });
  });
  afterAll(() => sb?.close());

  const client = (o: RecordingOptions = {}) => recordingClient(sb, { ...o });
  const direct = async (path: string, key: string | null) =>
    (await fetch(sb.url + path, { headers: key ? { 'X-API-Key': key } : {} })).json();

  describe('gated previews are never a superset', () => {
    it('a keyless 3-row queue tease answers nothing but itself', async () => {
      const { c, sent } = client({ derive: 'exact' });
      const tease = await core.refineQueue(c, { iso: 'NYISO' });
      expect(tease._gated).toBe(true);
      const again = await core.refineQueue(c, { iso: 'NYISO', min_mw: 100 });
      expect(core.fetchMeta(again)?.derivedFrom).toBeUndefined();
      expect(sent).toHaveLength(2);
    });

    it('a list answer with _preview_params_not_applied serves nothing; a keyless list never serves its masked numbers', async () => {
      const odd = client({
        apiKey: DEV,
        tier: 'developer',
        derive: 'widen',
        rewrite: (url, body) =>
          url === '/api/v1/dcpi/scores' ? { ...body, _preview_params_not_applied: ['limit'] } : body,
      });
      await core.dcpiScoreFields(odd.c, 'dallas');
      await core.dcpiScoreFields(odd.c, 'phoenix');
      expect(odd.sent).toEqual(['/api/v1/dcpi/scores', '/api/v1/dcpi/scores/dallas', '/api/v1/dcpi/scores/phoenix']);

      const anon = client({ derive: 'exact' });
      const list = await core.dcpiScores(anon.c);
      expect(list._gated).toBe(true);
      const slug = list.scores[0].market_slug;
      const verdict = await core.dcpiScoreFields(anon.c, slug);
      expect(core.fetchMeta(verdict)?.derivedFrom?.path).toBe('/api/v1/dcpi/scores');
      const score = await core.dcpiScoreFields(anon.c, slug, 'excess_power_score');
      expect(core.fetchMeta(score)?.derivedFrom).toBeUndefined();
      expect(anon.sent).toEqual(['/api/v1/dcpi/scores', `/api/v1/dcpi/scores/${slug}`]);
    });

    it('a queue answer served as a preview to a key (the real service gates free keys) is never widened from or derived from', async () => {
      const tease = (url: string, body: any) =>
        url.startsWith(core.QUEUE_PATH)
          ? {
              ...body,
              results: body.results.slice(0, 3),
              count_returned: Math.min(3, body.count_returned),
              _preview_params_not_applied: ['limit', 'min_mw'],
              _locked_fields: ['capacity_mw'],
            }
          : body;
      const { c, sent } = client({ apiKey: FREE, tier: 'free', rewrite: tease });
      const first = await core.refineQueue(c, { iso: 'SPP', min_mw: 100 });
      expect(core.fetchMeta(first)?.derivedFrom).toBeUndefined();
      expect(sent).toEqual([`${core.QUEUE_PATH}?iso=SPP&limit=1000`, `${core.QUEUE_PATH}?iso=SPP&min_mw=100`]);
      // The tier gets previews: no more widening; each question is its own request.
      await core.refineQueue(c, { iso: 'MISO', min_mw: 100 });
      await core.refineQueue(c, { iso: 'SPP', min_mw: 200 });
      expect(sent.slice(2)).toEqual([
        `${core.QUEUE_PATH}?iso=MISO&min_mw=100`,
        `${core.QUEUE_PATH}?iso=SPP&min_mw=200`,
      ]);
    });

    it('a complete answer that only lists locked fields (withheld numbers) serves nothing else', async () => {
      // A complete queue answer: a free key's on the spec profile; the real one teases free keys (notes §1.3),
      // Developer is complete.
      const [key, tier] = profile === 'real' ? [DEV, 'developer'] : [FREE, 'free'];
      const { c, sent } = client({
        apiKey: key,
        tier,
        derive: 'exact',
        rewrite: (url, body) => (url.startsWith(core.QUEUE_PATH) ? { ...body, _locked_fields: ['fiber_km'] } : body),
      });
      const wide = await core.refineQueue(c, { iso: 'NYISO', limit: 1000 });
      expect(wide.count_total_matching).toBe(wide.count_returned);
      await core.refineQueue(c, { iso: 'NYISO', max_fiber_km: 20 });
      expect(sent).toHaveLength(2);
    });

    it('a keyless DCPI list holds 10 markets: the others are fetched', async () => {
      const { c, sent } = client({ derive: 'exact' });
      const list = await core.dcpiScores(c);
      expect(list.scores).toHaveLength(10);
      const held = new Set(list.scores.map((r) => r.market_slug));
      const other = (await direct('/api/v1/dcpi/scores', DEV)).scores
        .map((r: { market_slug: string }) => r.market_slug)
        .find((s: string) => !held.has(s));
      const r = await core.dcpiScoreFields(c, other);
      expect(core.fetchMeta(r)?.derivedFrom).toBeUndefined();
      expect(sent).toEqual(['/api/v1/dcpi/scores', `/api/v1/dcpi/scores/${other}`]);
    });
  });
});
