import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import * as core from '../src/index.js';
import { recordingClient, type RecordingOptions } from './support/recording-client.js';
import { DCPI_LIST_FIELDS } from '../src/derive/pairs.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('items from lists (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const FREE = 'derive-items-free';
  const DEV = 'derive-items-developer';
  const PRO = 'derive-items-pro';

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'derive-items',
      now: '2026-11-21T12:00:00Z',
      keys: `free=${FREE},developer=${DEV},pro=${PRO}`,
      limits: false,
    });
  });
  afterAll(() => sb?.close());

  const client = (o: RecordingOptions = {}) => recordingClient(sb, { ...o });
  const direct = async (path: string, key: string | null) =>
    (await fetch(sb.url + path, { headers: key ? { 'X-API-Key': key } : {} })).json();

  describe('the DCPI scores list answers DCPI(slug, field)', () => {
    it("every row carries the single endpoint's fields and values, for every market", async () => {
      const list = await direct('/api/v1/dcpi/scores', DEV);
      expect(list.scores.length).toBeGreaterThan(200);
      for (const row of list.scores) {
        const one = await direct(`/api/v1/dcpi/scores/${row.market_slug}`, DEV);
        for (const f of DCPI_LIST_FIELDS) expect([row.market_slug, f, row[f]]).toEqual([row.market_slug, f, one[f]]);
      }
    }, 120_000);

    it('a cached list serves any market and field it carries, marked derived; the rest is fetched', async () => {
      const { c, sent } = client({ apiKey: DEV, tier: 'developer', derive: 'exact' });
      await core.dcpiScores(c);
      const slugs = ['dallas', 'phoenix', 'atlanta', 'reno'];
      for (const slug of slugs) {
        const r = await core.dcpiScoreFields(c, slug, [
          'verdict',
          'composite_score',
          'time_to_power_months',
          'top_risks_json',
        ]);
        expect(core.fetchMeta(r)?.derivedFrom).toMatchObject({ path: '/api/v1/dcpi/scores', query: '' });
        const one = await direct(`/api/v1/dcpi/scores/${slug}`, DEV);
        expect(r).toEqual({
          market_slug: slug,
          verdict: one.verdict,
          composite_score: one.composite_score,
          time_to_power_months: one.time_to_power_months,
          top_risks_json: one.top_risks_json,
        });
      }
      expect(sent).toEqual(['/api/v1/dcpi/scores']);
      // A field the list lacks, and an alias the list does not spell, go to the single endpoint.
      const q = await core.dcpiScoreFields(c, 'dallas', 'queue_wait_months');
      expect(q.queue_wait_months).toBe((await direct('/api/v1/dcpi/scores/dallas', DEV)).queue_wait_months);
      const alias = await core.dcpiScoreFields(c, 'nova', 'verdict');
      expect(core.fetchMeta(alias)?.derivedFrom).toBeUndefined();
      expect(alias._canonical_slug).toBe('northern-virginia');
      expect(sent.slice(1)).toEqual(['/api/v1/dcpi/scores/dallas', '/api/v1/dcpi/scores/nova']);
    });

    it('a free key: one list for a column of 40 verdicts; its masked numbers are never served from it', async () => {
      const { c, sent } = client({ apiKey: FREE, tier: 'free' });
      const list = await direct('/api/v1/dcpi/scores', FREE);
      const slugs: string[] = list.scores.slice(0, 40).map((r: { market_slug: string }) => r.market_slug);
      // Half computed at once, half one by one.
      const verdicts = await Promise.all(slugs.slice(0, 20).map((s) => core.dcpiScoreFields(c, s)));
      for (const s of slugs.slice(20)) verdicts.push(await core.dcpiScoreFields(c, s));
      expect(sent).toEqual(['/api/v1/dcpi/scores']);
      for (const [i, v] of verdicts.entries())
        expect(v.verdict).toBe((await direct(`/api/v1/dcpi/scores/${slugs[i]}`, FREE)).verdict);
      // composite_score is null (locked) in this caller's list: fetched, and the list is not asked again.
      // The real service withholds it from the single market too below Developer (notes §2.6): null there as well.
      const n = await core.dcpiScoreFields(c, slugs[0], 'composite_score');
      expect(n.composite_score).toEqual(profile === 'real' ? null : expect.any(Number));
      expect(sent.slice(1)).toEqual([`/api/v1/dcpi/scores/${slugs[0]}`]);
    });

    it('a list that names a field among its locked ones never serves it, even when the value is there', async () => {
      const { c, sent } = client({
        apiKey: DEV,
        tier: 'developer',
        derive: 'widen',
        rewrite: (url, body) => (url === '/api/v1/dcpi/scores' ? { ...body, _locked_fields: ['verdict'] } : body),
      });
      const r = await core.dcpiScoreFields(c, 'dallas', 'verdict');
      expect(core.fetchMeta(r)?.derivedFrom).toBeUndefined();
      expect(sent).toEqual(['/api/v1/dcpi/scores', '/api/v1/dcpi/scores/dallas']);
      const m = await core.dcpiScoreFields(c, 'phoenix', 'market_name');
      expect(core.fetchMeta(m)?.derivedFrom?.path).toBe('/api/v1/dcpi/scores');
    });

    it('same freshness as the single answer: after the 06:00 UTC recompute the list is asked again', async () => {
      const { c, sent } = client({ apiKey: FREE, tier: 'free' });
      await core.dcpiScoreFields(c, 'dallas');
      sb.ctx.clock.set('2026-11-22T06:30:00Z');
      const r = await core.dcpiScoreFields(c, 'dallas');
      expect(sent).toEqual(['/api/v1/dcpi/scores', '/api/v1/dcpi/scores']);
      expect(r.verdict).toBe((await direct('/api/v1/dcpi/scores/dallas', FREE)).verdict);
    });
  });

  describe('an /all page of market briefs answers BRIEF(slug, field)', () => {
    it("Pro: the fields of every brief on the page equal the single brief's; other markets are fetched", async () => {
      const { c, sent } = client({ apiKey: PRO, tier: 'pro' });
      const page = await core.fetchBriefsAll(c);
      const paths = [
        'hero.verdict',
        'hero.composite_score',
        'kpis.operational_mw',
        'kpis.top_operator.name',
        'power_grid.queue_capacity_mw',
        'outlook.word_count',
        'pipeline',
        'live_as_of.iso',
      ];
      for (const b of page.briefs) {
        const r = await core.marketBriefFields(c, b.slug, paths);
        expect(core.fetchMeta(r)?.derivedFrom?.path).toBe('/api/v1/market-brief/all');
        const one = await direct(`/api/v1/market-brief/${b.slug}`, PRO);
        for (const p of paths) expect([b.slug, p, core.readPath(r, p)]).toEqual([b.slug, p, core.readPath(one, p)]);
      }
      expect(sent).toEqual(['/api/v1/market-brief/all']);
      const other = await core.marketBriefFields(c, 'boise', 'hero.verdict');
      expect(core.fetchMeta(other)?.derivedFrom).toBeUndefined();
      expect(sent.slice(1)).toEqual(['/api/v1/market-brief/boise']);
    });

    it('free: the page serves what it holds; a section withheld below Pro (null) is fetched, never served', async () => {
      const { c, sent } = client({ apiKey: FREE, tier: 'free' });
      const v = await core.marketBriefFields(c, 'phoenix', 'hero.verdict');
      expect(sent).toEqual(['/api/v1/market-brief/all']);
      expect(v.hero?.verdict).toBe((await direct('/api/v1/market-brief/phoenix', FREE)).hero.verdict);
      const grid = await core.marketBriefFields(c, 'phoenix', 'power_grid.iso');
      expect(grid.power_grid).toBeNull();
      expect(sent.slice(1)).toEqual(['/api/v1/market-brief/phoenix']);
    });
  });
});
