import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import { DEV, expectShape, feedsSandbox, fetchMetaOf, rejectsParam } from './support/feeds-sandbox.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('feeds, energy, agent (%s profile)', (profile) => {
  const { client, keyless, raw, rawPost } = feedsSandbox(profile);

  describe('facilities', () => {
    it('search matches the sandbox, and the table keeps numbers', async () => {
      const c = client();
      const s = await core.searchFacilities(c, { q: 'dallas', country: 'us', limit: 7 });
      expect(s).toEqual(await raw('/api/v1/facilities?q=dallas&country=US&limit=7'));
      expect(s.data).toHaveLength(7);
      const t = core.facilitiesTable(s);
      expect(t.columns.slice(0, 9)).toEqual([
        'id',
        'name',
        'provider',
        'operator',
        'city',
        'state',
        'country',
        'market',
        'power_mw',
      ]);
      expectShape(t, 7, ['id', 'power_mw', 'latitude', 'longitude']);
      expect(t.rows.map((r) => r[0])).toEqual(s.data.map((f) => f.id));
      expect(t.citation).toMatch(/DC Hub/);
      expect(fetchMetaOf(s).preview).toBe(false);
    });

    it('detail of one facility as field/value rows', async () => {
      const c = client();
      const id = (await core.searchFacilities(c, { q: 'dallas', limit: 1 })).data[0].id;
      const d = await core.facilityDetail(c, String(id));
      expect(d).toEqual(await raw(`/api/v1/facilities/detail/${id}`));
      expect(d.data.id).toBe(id);
      const t = core.facilityTable(d);
      expect(t.columns).toEqual(['field', 'value']);
      expect(t.rows).toContainEqual(['id', id]);
      expect(t.rows).toContainEqual(['capacity.it_load_mw', d.data.capacity.it_load_mw]);
      expect(typeof d.data.capacity.it_load_mw).toBe('number');
      await expect(core.facilityDetail(c, 99_999_999)).rejects.toBeInstanceOf(core.NotFoundError);
    });

    it('keyless search is a preview, flagged as one', async () => {
      const kc = keyless();
      const s = await core.searchFacilities(kc, { q: 'dallas', limit: 20 });
      expect(s).toEqual(await raw('/api/v1/facilities?q=dallas&limit=20', null));
      expect(s._gated).toBe(true);
      expect(s.data.length).toBeLessThanOrEqual(core.FACILITIES_KEYLESS_ROWS);
      expect(core.fetchMeta(s)?.preview).toBe(true);
      const t = core.facilitiesTable(s);
      expectShape(t, s.data.length, ['id']);
      expect(t.columns).not.toContain('power_mw');
      expect(t.note).toMatch(/Showing \d+ of \d+/);
    });

    it('semantic search matches the sandbox (Developer key)', async () => {
      const dc = client(DEV, 'developer');
      const r = await core.semanticSearch(dc, 'hyperscale campus in texas', 3);
      expect(r).toEqual(
        await rawPost('/api/v1/search/semantic', { query: 'hyperscale campus in texas', topK: 3 }, DEV),
      );
      const t = core.semanticTable(r);
      expect(t.columns).toEqual([...core.SEMANTIC_COLUMNS]);
      expectShape(t, 3, ['score', 'power_mw', 'lat', 'lng']);
      expect((await core.semanticSearch(dc, 'dallas')).count).toBe(5); // topK defaults to 5
    });

    it('semantic search without a key is 401 (the real service: 403 plan_required), with a free key 403', async () => {
      const kc = keyless();
      const e401 = await core.semanticSearch(kc, 'gpu cluster').catch((e: unknown) => e);
      expect(e401).toBeInstanceOf(core.AuthError);
      // The real service refuses a missing credential with 403 plan_required, not 401 (notes §1.4).
      expect((e401 as core.AuthError).status).toBe(profile === 'real' ? 403 : 401);
      if (profile === 'real')
        expect(e401).toMatchObject({
          requiredPlan: 'developer',
          message: expect.stringMatching(
            /^This endpoint requires a Developer plan or higher \(your plan: free\); upgrade: https:\/\//,
          ),
        });
      const free = await core.claimKey(keyless(), { client_name: 'semantic-free-test' });
      expect(free.tier).toBe('free');
      const e403 = await core.semanticSearch(client(free.api_key, 'free'), 'gpu cluster').catch((e: unknown) => e);
      expect(e403).toBeInstanceOf(core.AuthError);
      expect((e403 as core.AuthError).status).toBe(403);
    });

    it('bad arguments throw ValidationError before any request', async () => {
      const c = client();
      await rejectsParam(core.searchFacilities(c, { country: 'USA' }), 'country');
      await rejectsParam(core.searchFacilities(c, { limit: 0 }), 'limit');
      await rejectsParam(core.searchFacilities(c, { limit: 101 }), 'limit');
      await rejectsParam(core.searchFacilities(c, { q: 'x'.repeat(201) }), 'q');
      for (const bad of [0, -3, 1.5, 'abc', '', '12a'] as const)
        await rejectsParam(core.facilityDetail(c, bad), 'facility_id');
      await rejectsParam(core.semanticSearch(c, '   '), 'query');
      await rejectsParam(core.semanticSearch(c, 'x', 51), 'topK');
      await rejectsParam(core.semanticSearch(c, 'x', 0), 'topK');
      expect(c.requestsSent).toBe(0);
    });
  });
});
