import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  AuthError,
  DchubClient,
  NetworkError,
  QUEUE_COLUMNS,
  ValidationError,
  briefsTable,
  fetchMeta,
  fetchBriefsCsv,
  queueTable,
  refineQueue,
  siteScore,
  siteScoreTable,
} from '../src/index.js';
import { SANDBOX_PROFILES, failedBriefSlugs } from './support/profiles.js';

describe.each(SANDBOX_PROFILES)('core calls (%s profile)', (profile) => {
  let sb: RunningSandbox;
  const seen: Array<{ url: string; key: string | null }> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    seen.push({ url: req.url, key: req.headers.get('x-api-key') });
    return fetch(req);
  };

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'core-test',
      now: '2026-11-21T12:00:00Z',
      keys: 'pro=pro-key-123,enterprise=ent-key-456',
    });
  });
  afterAll(() => sb?.close());

  describe('core against the sandbox over HTTP', () => {
    it('refines the queue into typed survivors and a table', async () => {
      const client = new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-123' });
      const r = await refineQueue(client, { iso: 'PJM,MISO', min_mw: 200, max_ttp_months: 36, limit: 25 });
      expect(r._entity).toBe('queue_results');
      expect(r.results.length).toBe(r.count_returned);
      expect(r.count_returned).toBeLessThanOrEqual(25);
      expect(r.results.every((x) => x.iso === 'MISO' && (x.capacity_mw ?? 0) >= 200)).toBe(true);
      const t = queueTable(r);
      expect(t.columns).toEqual([...QUEUE_COLUMNS]);
      expect(t.rows.length).toBe(r.count_returned);
      const capIdx = t.columns.indexOf('capacity_mw');
      expect(typeof t.rows[0][capIdx]).toBe('number');
      const latIdx = t.columns.indexOf('lat');
      for (const [i, row] of t.rows.entries()) expect(row[latIdx]).toBe(r.results[i].lat ?? '');
      expect(t.citation).toContain('CC-BY-4.0');
    });

    it('carries the time-to-power hint when the cut empties the set', async () => {
      const r = await refineQueue(new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-123' }), {
        iso: 'PJM',
        max_ttp_months: 30,
      });
      expect(r.count_returned).toBe(0);
      // Every host shows what the service explains: the ISO the cut excluded, and its hint.
      expect(fetchMeta(r)?.explanations).toEqual([
        'excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)',
        expect.stringMatching(/max_ttp_months to at least 50\.5/),
      ]);
    });

    it('keyless callers get the 3-row queue preview with the gating markers', async () => {
      const r = await refineQueue(new DchubClient({ baseUrl: sb.url }), { iso: 'PJM', min_mw: 100 });
      expect(r._gated).toBe(true);
      expect(r._preview_only).toBe(true);
      expect(r.results).toHaveLength(3);
      expect(r.results.every((x) => x.capacity_mw === null && x.site_evaluation_handoff === null)).toBe(true);
      if (profile === 'spec') {
        expect(r._hidden_count).toBe(r.count_total_matching - 3);
      } else {
        // The real tease (notes §1.3): no spec markers; the withheld fields, the total, the filters it ignored, 2-dp
        // coordinates.
        const o = r as Record<string, unknown>;
        expect(o._hidden_count).toBeUndefined();
        expect(o._locked_fields).toEqual([
          'capacity_mw',
          'estimated_ttp_months',
          'fiber_km',
          'site_evaluation_handoff',
          'total_queued_mw',
        ]);
        expect(o._total_available).toBe(r.count_total_matching);
        expect(o._preview_params_not_applied).toEqual(['min_mw']);
        expect(fetchMeta(r)?.previewInfo).toMatchObject({
          shown: 3,
          total: r.count_total_matching,
          filtersNotApplied: ['min_mw'],
          requiredTier: 'developer',
        });
        for (const x of r.results) if (typeof x.lat === 'number') expect(Math.round(x.lat * 100) / 100).toBe(x.lat);
      }
    });

    it('scores a site and shapes it as field/value rows', async () => {
      const s = await siteScore(new DchubClient({ baseUrl: sb.url }), { lat: 39.04, lon: -77.49, capacity_mw: 100 });
      expect(s.success).toBe(true);
      expect(s.overall_score).toBeGreaterThan(0);
      expect(s.overall_score).toBeLessThanOrEqual(100);
      expect(s.capacity_requested_mw).toBe(100);
      const t = siteScoreTable(s);
      expect(t.rows).toContainEqual(['overall_score', s.overall_score]);
      expect(t.rows).toContainEqual(['nearby.substations_50km', s.nearby!.substations_50km!]);
    });

    it('parses the brief CSV with its file name and tier scope', async () => {
      const anon = await fetchBriefsCsv(new DchubClient({ baseUrl: sb.url }));
      expect(anon.filename).toBe('dchub-market-briefs-2026-11-21.csv');
      // The real profile fails one of the five each day (notes §2.29): named in the warnings and left out.
      const failed = failedBriefSlugs(anon);
      expect(failed).toHaveLength(profile === 'real' ? 1 : 0);
      expect(anon.rows.map((r) => r.market_slug)).toEqual(
        ['northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago'].filter((s) => !failed.includes(s)),
      );
      const ent = await fetchBriefsCsv(new DchubClient({ baseUrl: sb.url, apiKey: 'ent-key-456' }));
      // Every page of the enterprise markets (was the first 50: issue 12).
      expect(ent.rows.length).toBe(232 - failed.length);
      const t = briefsTable(anon.rows);
      expect(t.columns[0]).toBe('market_slug');
      expect(typeof t.rows[0][3]).toBe('number');
      expect(['BUILD', 'CAUTION', 'AVOID']).toContain(t.rows[0][2]);
    });

    it('rejects bad arguments before spending a call', async () => {
      seen.length = 0;
      const client = new DchubClient({ baseUrl: sb.url, fetch: recordingFetch });
      await expect(refineQueue(client, { min_mw: 'lots' })).rejects.toThrow(ValidationError);
      await expect(siteScore(client, { lat: 95, lon: 0 })).rejects.toThrow(/lat: must be at most 90/);
      expect(seen).toHaveLength(0);
    });

    it('turns a 401 into an AuthError with the instructions link, without echoing the key', async () => {
      const err = await siteScore(new DchubClient({ baseUrl: sb.url, apiKey: 'not-a-real-key-999' }), {
        lat: 1,
        lon: 1,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect(err.status).toBe(401);
      expect(err.authInstructions).toMatch(/\/auth\.md$/);
      expect(String(err.message)).not.toContain('not-a-real-key-999');
    });

    it('sends the key only to the configured base URL', async () => {
      seen.length = 0;
      const client = new DchubClient({ baseUrl: sb.url, apiKey: 'pro-key-123', fetch: recordingFetch });
      await refineQueue(client, { iso: 'SPP', limit: 1 });
      expect(seen).toHaveLength(1);
      expect(seen[0].url.startsWith(`${sb.url}/`)).toBe(true);
      expect(seen[0].key).toBe('pro-key-123');
      expect(client.hasApiKey).toBe(true);
      expect(JSON.stringify(client)).not.toContain('pro-key-123');
    });

    it('reports an unreachable service as a NetworkError', async () => {
      const err = await refineQueue(
        new DchubClient({ baseUrl: 'http://127.0.0.1:9', retries: 0, timeoutMs: 2000 }),
        {},
      ).catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toMatch(/cannot reach/);
    });
  });
});
