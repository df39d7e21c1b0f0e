import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SchemaDriftError,
  ServerError,
  queueTable,
  readBriefsAll,
  readDcpiScore,
  readFacilities,
  readMarketList,
  readQueue,
  readSiteScore,
  readStats,
  readTransactions,
  readAiCapacity,
  readBrief,
  readBriefsDiff,
  readEnergyPrices,
  readFuelMix,
  readNews,
  readPipeline,
  DchubError,
  schemaReader,
  KeyClaimAnswer,
  siteScoreTable,
  type Reader,
} from '../src/index.js';
import { decode } from './support/decode.js';

// The briefs' readers (/all and the CSV) are in read-briefs.test.ts.

describe('tolerant readers', () => {
  it('queue: the tease keeps its rows, blanks stay null, decimal strings become numbers, the filters not applied are the caller’s', () => {
    const d = decode(
      readQueue,
      {
        _entity: 'queue_results',
        ok: true,
        count_returned: 3,
        count_total_matching: 4948,
        total_queued_mw: null,
        filters_applied: { min_mw: null, iso: 'PJM', status: 'active' },
        results: [
          {
            queue_id: 'PJM-1',
            iso: 'PJM',
            state: 'VA',
            capacity_mw: null,
            lat: '39.01',
            lng: -77.5,
            estimated_ttp_months: null,
          },
          { queue_id: 'PJM-2', iso: 'PJM', state: null, capacity_mw: null, lat: null, lng: null },
          { project_name: 'no id, no iso' },
        ],
        _gated: true,
        _preview_only: true,
        _total_available: 4948,
        _locked_fields: ['fiber_km', 'capacity_mw'],
        _preview_params_not_applied: ['limit', 'max_fiber_km', 'max_ttp_months', 'min_mw'],
        upgrade_url: 'https://dchub.cloud/go/c/abc',
        upgrade_options: [
          { plan: 'pack', url: 'https://x/pack' },
          { plan: 'developer', url: 'https://x/dev' },
        ],
      },
      { iso: 'PJM', min_mw: '100' },
    );
    expect(d.value.results.map((r) => r.queue_id)).toEqual(['PJM-1', 'PJM-2']);
    expect(d.value.results[0].lat).toBe(39.01);
    expect(d.value.results[0].capacity_mw).toBeNull();
    expect(d.value.count_returned).toBe(2);
    expect(d.warnings).toEqual([expect.stringMatching(/^queue record 3: queue_id missing \(left out\)$/)]);
    expect(d.preview).toMatchObject({
      shown: 2,
      total: 4948,
      lockedFields: ['capacity_mw', 'fiber_km'],
      filtersNotApplied: ['min_mw'],
      requiredTier: 'developer',
      upgradeUrl: 'https://dchub.cloud/go/c/abc',
    });
    const t = queueTable(d.value);
    expect(t.rows[0][t.columns.indexOf('capacity_mw')]).toBe('');
  });

  it('queue: a bare list and the legacy {success, data} envelope', () => {
    const rows = [{ queue_id: 'ERCOT-9', iso: 'ERCOT', capacity: '250.5', lon: -97.1, lat: 31 }];
    const bare = decode(readQueue, rows);
    expect(bare.value).toMatchObject({ _entity: 'queue_results', count_returned: 1, count_total_matching: 1 });
    expect(bare.value.results[0]).toMatchObject({ capacity_mw: 250.5, lng: -97.1 });
    const legacy = decode(readQueue, { success: true, data: rows, count_total_matching: 7 });
    expect(legacy.value.count_total_matching).toBe(7);
    expect(legacy.value.results).toHaveLength(1);
  });

  it('queue: no list at all cannot serve → SchemaDriftError naming the path', () => {
    expect(() => decode(readQueue, { _entity: 'queue_results', ok: true })).toThrow(SchemaDriftError);
    try {
      decode(readQueue, { ok: true });
    } catch (e) {
      expect((e as SchemaDriftError).path).toBe('results');
    }
  });

  it('site score below Pro: null scores delivered, marked as a preview; never 0', () => {
    const d = decode(readSiteScore, {
      success: true,
      overall_score: null,
      scores: { power_infrastructure: null, fiber_connectivity: null },
      location: { lat: 33.45, lng: -112.07, state: 'AZ' },
      verdict: 'Good site (band)',
      nearby: { facilities_100km: '14' },
      _gated: true,
      _preview_only: true,
      _locked_fields: ['overall_score', 'scores'],
      required_plan: 'pro',
      upgrade_url: 'https://dchub.cloud/pricing',
    });
    expect(d.value.overall_score).toBeNull();
    expect(d.value.location.lon).toBe(-112.07);
    expect(d.value.nearby?.facilities_100km).toBe(14);
    expect(d.value.interpretation).toBe('Good site (band)');
    expect(d.preview).toMatchObject({ requiredTier: 'pro', lockedFields: ['overall_score', 'scores'] });
    const t = siteScoreTable(d.value);
    expect(t.rows).toContainEqual(['overall_score', '']);
  });

  it('site score: the legacy {success, data} envelope is unwrapped', () => {
    const d = decode(readSiteScore, { success: true, data: { overall_score: '71.4', location: { lat: 1, lon: 2 } } });
    expect(d.value).toMatchObject({ overall_score: 71.4, interpretation: 'Good site', location: { lat: 1, lon: 2 } });
  });

  it('markets list: missing ids from the slug or name, state null abroad, the tier cap as a preview', () => {
    const d = decode(readMarketList, {
      success: true,
      count: 2,
      total: 60,
      tier: 'anonymous',
      locked: 58,
      upsell: 'Sign up free for 10 markets',
      upgrade_url: null,
      signup_url: 'https://dchub.cloud/signup',
      data: [
        { id: 'northern virginia', name: 'Northern Virginia', facility_count: 275, total_power_mw: '3500.0' },
        {
          name: 'Frankfurt',
          facility_count: 80,
          total_power_mw: null,
          state: null,
          country: 'DE',
          international: true,
        },
      ],
    });
    expect(d.value.data.map((m) => m.id)).toEqual(['northern virginia', 'frankfurt']);
    expect(d.value.data[0].total_power_mw).toBe(3500);
    expect(d.value.data[1].total_power_mw).toBeNull();
    expect(d.warnings).toEqual(['1 market without an id: the slug or name stands in']);
    expect(d.preview).toMatchObject({ shown: 2, total: 60, hidden: 58, message: 'Sign up free for 10 markets' });
  });

  it('stats: the real answer without the spec’s extra totals still reads', () => {
    const d = decode(readStats, {
      success: true,
      data: { total_facilities: 21374, total_power_mw: 0, total_providers: 0, total_countries: 0 },
      generated_at: '2026-06-01T12:00:00.000000',
      facilities: 21374,
      markets: 10,
      deals: 0,
    });
    expect(d.value.facilities).toBe(21374);
    expect(d.value.articles).toBeUndefined();
  });

  it('DCPI below Developer: null numbers kept; a 200 with only an error is the service’s refusal', () => {
    const d = decode(readDcpiScore, {
      market_slug: 'ashburn',
      market_name: 'Ashburn',
      verdict: 'AVOID',
      composite_score: null,
      excess_power_score: null,
      constraint_score: null,
      time_to_power_months: null,
      computed_at: '2026-11-21T06:00:00Z',
      _gated: true,
      _locked_fields: ['composite_score'],
    });
    expect(d.value).toMatchObject({ verdict: 'AVOID', composite_score: null, queue_capacity_mw: null });
    expect(d.preview?.lockedFields).toEqual(['composite_score']);
    expect(() => decode(readDcpiScore, { error: 'Unsupported ISO: XYZ', supported: ['PJM'] })).toThrow(ServerError);
  });

  it('facilities: the keyed legacy rows (no slug, pagination) and the keyless 5-row cut', () => {
    const keyed = decode(readFacilities, {
      success: true,
      data: [
        {
          id: 1,
          name: 'A',
          city: 'Ashburn',
          state: 'VA',
          country: 'US',
          provider: 'Equinix',
          latitude: '39.0',
          longitude: -77.4,
          power_mw: null,
          status: 'operational',
          operator: 'Equinix',
          market: null,
        },
      ],
      pagination: { page: 1, limit: 50, total: 312, pages: 7 },
    });
    expect(keyed.value).toMatchObject({ count: 1, total_matching: 312 });
    expect(keyed.value.data[0]).toMatchObject({ latitude: 39 });
    expect(keyed.preview).toBeUndefined();
    const keyless = decode(readFacilities, {
      success: true,
      data: [{ id: 8484, name: 'B', city: 'Berlin', state: null, country: 'DE', provider: 'X', slug: 'b-1a2b3c4d' }],
      count: 1,
      total_matching: 312,
      full_results_available: true,
      tier: 'free',
      upgrade_url: 'https://dchub.cloud/pricing',
      note: 'Free tier: showing 5 of 312 matching facilities with basic fields.',
    });
    expect(keyless.preview).toMatchObject({
      shown: 1,
      total: 312,
      lockedFields: ['latitude', 'longitude', 'market', 'operator', 'power_mw', 'status'],
    });
  });

  it('transactions keyless: 3 basic deals, total_matching', () => {
    const d = decode(readTransactions, {
      success: true,
      transactions: [
        { buyer: 'A', seller: 'B', market: 'Dallas', date: '2026-05-20', type: 'ma', region: 'North America' },
      ],
      data: [],
      count: 1,
      total_matching: 1932,
      total_tracked: 4979,
      full_results_available: true,
      upgrade_url: 'https://dchub.cloud/pricing',
      note: 'Free tier: showing 3 of 1932 transactions with basic fields.',
    });
    expect(d.value).toMatchObject({ count: 1, total_count: 1932 });
    expect(d.value.transactions[0].value).toBeUndefined();
    expect(d.preview).toMatchObject({ shown: 1, total: 1932 });
  });

  it('key claim: a reused key without developer_id and claim_id still hands the key over', () => {
    const d = decode(schemaReader(KeyClaimAnswer), {
      ok: true,
      api_key: `dch_live_${'0123456789abcdef'.repeat(2)}` /* a made-up key of the real format */,
      tier: 'identified',
      daily_calls: 50,
      reused: true,
      note: 'Existing key reused.',
    });
    expect(d.value.api_key).toMatch(/^dch_live_/);
    expect(d.value.claim_id).toBeUndefined();
  });

  it('any odd JSON fails only with a typed error, never a crash, for every reader', () => {
    const readers = [
      readQueue,
      readSiteScore,
      readBriefsAll,
      readBriefsDiff,
      readBrief,
      readMarketList,
      readStats,
      readDcpiScore,
      readAiCapacity,
      readFacilities,
      readNews,
      readTransactions,
      readPipeline,
      readFuelMix,
      readEnergyPrices,
    ] as Reader<unknown>[];
    const listKeys = [
      'results',
      'data',
      'briefs',
      'markets',
      'articles',
      'transactions',
      'fuel_mix',
      'hero',
      'location',
      'kpis',
      'overall_score',
    ];
    const odd = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom(...listKeys),
        fc.oneof(fc.jsonValue(), fc.array(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())))),
        {
          maxKeys: 5,
        },
      ),
    );
    fc.assert(
      fc.property(odd, fc.constantFrom(...readers), (body, reader) => {
        try {
          decode(reader, body);
        } catch (e) {
          if (!(e instanceof DchubError)) throw e;
        }
      }),
      { numRuns: 600 },
    );
  });
});
