// Core's card builders (core/src/cards) under the strict model's rules for cell values, at both
// API levels that have cards: what each kind holds, its formats, blanks, previews, stale answers,
// licences, and cards read back as RANK candidates. The browser suites run the same builders
// through the add-in against the sandbox.
import {
  cardCandidates,
  leaderboardCards,
  marketCard,
  projectCards,
  siteCard,
  type CardContext,
  type EntityValue,
} from '@dchub/core';
import { describe, expect, it } from 'vitest';
import { cellValueDefects } from './cell-values.js';
import { officeIcons } from './office-icons.js';

const ICONS = new Set(officeIcons());
const LEVELS = [
  ['ExcelApi 1.19', { excelApi119: true }, '1.19'],
  ['ExcelApi 1.16', { excelApi119: false }, '1.16'],
] as const;
const AT = Date.UTC(2026, 10, 21, 12, 0); // 2026-11-21 12:00 UTC = serial 46347.5

const DCPI = {
  market_slug: 'dallas',
  market_name: 'Dallas',
  state: 'TX',
  iso: 'ERCOT',
  latitude: 32.7767,
  longitude: -96.797,
  constraint_score: 41.4,
  excess_power_score: 55.6,
  time_to_power_months: 33.3,
  verdict: 'CAUTION',
  top_risks_json: [],
  top_opportunities_json: ['8.3% curtailment signals stranded generation', 'reserve margin 29.4%'],
  computed_at: '2026-10-16T06:00:00+00:00',
  composite_score: 47.1,
  queue_capacity_mw: 2584,
  reserve_margin_pct: 29.4,
  avg_kwh_cents: 7.1,
  method_version: '2.3.0',
  cite_url: 'https://dchub.cloud/dcpi/dallas',
  // Members a market card must never carry: the facility inventory has no redistribution grant.
  facility_count: 137,
  top_providers: [{ name: 'NTT', facilities: 10 }],
};
const SITE = {
  success: true,
  location: { lat: 39.04, lon: -77.49, state: 'VA' },
  capacity_requested_mw: null,
  overall_score: 86.5,
  interpretation: 'Excellent site',
  scores: { power_infrastructure: 100, fiber_connectivity: 100 },
  fiber: {
    basis: 'parcel-based',
    connectivity_score: 100,
    carrier_count: 11,
    nearest_carrier_km: 4.1,
    single_carrier_risk: false,
    top_carriers: [{ carrier: 'FiberLight', distance_km: 10.4 }],
  },
  nearby: { facilities_100km: 202, total_capacity_mw: 6728.1, substations_50km: 64, generation_capacity_mw: 15797.6 },
  capacity_context: { affects_overall_score: false, basis: 'context only', instead: 'check the queue' },
  source: 'DC Hub Site Intelligence',
};
const QUEUE = {
  _entity: 'queue_results',
  ok: true,
  count_returned: 1,
  count_total_matching: 1,
  filters_applied: {},
  _cite: 'Data: DC Hub (dchub.cloud), CC-BY-4.0',
  citation: { source: 'DC Hub', url: 'https://dchub.cloud', license: 'CC-BY-4.0', cite_as: 'DC Hub, dchub.cloud' },
  results: [
    {
      queue_id: 'ERCOT-963',
      project_name: 'Copper Hollow Energy Center',
      iso: 'ERCOT',
      state: 'TX',
      capacity_mw: 2568.2,
      queue_date: '2017-08-12',
      lat: 32.49,
      lng: -96.75,
      fiber_km: null,
      estimated_ttp_months: 32.6,
      candidate_id: 'cand_09e7',
      site_evaluation_handoff: { analyze_site: { lat: 32.49, lon: -96.75, capacity_mw: 2568.2, include_fiber: true } },
    },
  ],
};

const ctx = (excelApi119: boolean, extra: Partial<CardContext> = {}): CardContext => ({
  host: { excelApi119 },
  retrievedAt: AT,
  ...extra,
});
const valid = (v: EntityValue, excelApi: string) =>
  expect(cellValueDefects(v, 'card', { excelApi, icons: ICONS })).toEqual([]);
const p = (v: EntityValue, name: string) =>
  v.properties[name] as { type: string; basicValue: unknown; numberFormat?: string; propertyMetadata?: any };

/** Every property name in a card and its nested cards. */
function names(v: EntityValue): string[] {
  return Object.entries(v.properties).flatMap(([k, c]) => [k, ...(c.type === 'Entity' ? names(c) : [])]);
}

describe.each(LEVELS)('cards at %s', (_label, host, excelApi) => {
  const formatted = host.excelApi119 ? 'Double' : 'FormattedNumber';

  it('a market card: text, DCPI numbers with their formats, dates as dates, the citation and CC-BY attribution', () => {
    const c = marketCard(DCPI, ctx(host.excelApi119));
    valid(c, excelApi);
    expect(c.text).toBe('Dallas · CAUTION · 47.1');
    expect(c.layouts.compact.icon).toBe('City');
    expect(c.provider).toEqual({ description: 'DC Hub', logoTargetAddress: 'https://dchub.cloud' });
    expect(p(c, 'composite_score')).toMatchObject({ type: formatted, basicValue: 47.1, numberFormat: '0.0' });
    expect(p(c, 'time_to_power_months')).toMatchObject({ type: formatted, numberFormat: '0.0 "months"' });
    expect(p(c, 'queue_capacity_mw').numberFormat).toBe('#,##0 "MW"');
    expect(p(c, 'avg_kwh_cents').numberFormat).toBe('0.00 "¢/kWh"');
    expect(p(c, 'reserve_margin_pct').numberFormat).toBe('0.0"%"');
    expect(p(c, 'computed_at')).toMatchObject({
      type: formatted,
      basicValue: 46311.25,
      numberFormat: 'yyyy-mm-dd hh:mm',
    });
    expect(p(c, 'as_of')).toMatchObject({ basicValue: 46347.5, numberFormat: 'yyyy-mm-dd hh:mm' });
    expect(p(c, 'top_risks').basicValue).toBe('none listed');
    expect(p(c, 'top_opportunities').basicValue).toBe(
      '8.3% curtailment signals stranded generation; reserve margin 29.4%',
    );
    expect(p(c, 'citation').basicValue).toBe(
      'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0, method 2.3.0. Retrieved 2026-11-21.',
    );
    expect(p(c, 'verdict').propertyMetadata.attribution).toEqual([
      {
        sourceText: 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud',
        sourceAddress: 'https://dchub.cloud/dcpi/dallas',
        licenseText: 'CC-BY-4.0',
        licenseAddress: 'https://creativecommons.org/licenses/by/4.0/',
      },
    ]);
    expect(names(c)).not.toEqual(expect.arrayContaining(['facility_count']));
    expect(names(c).filter((n) => /facilit|provider/.test(n))).toEqual([]);
  });

  it('sections: an untitled headline section (two columns only at 1.19), then titled ones naming only what the card has', () => {
    const c = marketCard(DCPI, ctx(host.excelApi119));
    const [first, ...rest] = c.layouts.card.sections;
    expect(first).toMatchObject({
      layout: host.excelApi119 ? 'TwoColumn' : 'List',
      properties: ['verdict', 'composite_score', 'excess_power_score', 'constraint_score', 'time_to_power_months'],
    });
    expect(first.title).toBeUndefined();
    expect(rest.map((s) => s.title)).toEqual(['Market', 'Power', 'Risks', 'Source']);
    expect(rest.find((s) => s.title === 'Power')!.properties).toEqual([
      'queue_capacity_mw',
      'reserve_margin_pct',
      'avg_kwh_cents',
    ]);
    expect(c.layouts.card.title).toEqual({ property: 'name' });
    expect(c.layouts.card.subTitle).toEqual({ property: 'summary' });
    expect(p(c, 'summary').basicValue).toBe('DCPI CAUTION · ERCOT · TX');
  });

  it('null scores stay blank (empty text, never 0); the text leaves the score out', () => {
    const c = marketCard(
      { ...DCPI, composite_score: null, excess_power_score: null, top_risks_json: null },
      ctx(host.excelApi119),
    );
    valid(c, excelApi);
    expect(c.text).toBe('Dallas · CAUTION');
    expect(p(c, 'composite_score')).toEqual({ type: 'String', basicValue: '', propertyMetadata: expect.anything() });
    expect(p(c, 'top_risks').basicValue).toBe('');
    expect(c.properties.preview).toBeUndefined();
  });

  it('a preview says so in its subtitle and names what it withholds; a stale card carries its age', () => {
    const preview = {
      lockedFields: ['composite_score', 'constraint_score'],
      withheldSections: [],
      filtersNotApplied: [],
      requiredTier: 'developer',
      upgradeUrl: 'https://dchub.cloud/pricing',
    };
    const c = marketCard(
      { ...DCPI, composite_score: null, constraint_score: null },
      ctx(host.excelApi119, { preview, stale: 'served from the cache (25 h old): service error' }),
    );
    valid(c, excelApi);
    expect(p(c, 'summary').basicValue).toBe('Preview · DCPI CAUTION · ERCOT · TX · stale (cached)');
    expect(p(c, 'preview').basicValue).toBe(
      'Preview; withheld: composite_score, constraint_score; the Developer plan opens the full answer: https://dchub.cloud/pricing.',
    );
    expect(p(c, 'stale').basicValue).toBe('served from the cache (25 h old): service error');
    expect(c.layouts.card.sections.at(-1)!.properties).toEqual(expect.arrayContaining(['as_of', 'stale', 'preview']));
  });

  it('a site card: nested cards for sub-scores, fiber, nearby and capacity; the facility-inventory counts left out', () => {
    const c = siteCard(SITE, ctx(host.excelApi119));
    valid(c, excelApi);
    expect(c.text).toBe('39.04, -77.49 · Excellent site · 86.5');
    expect(c.layouts.compact.icon).toBe('MapPin');
    expect(p(c, 'id').basicValue).toBe('39.04,-77.49');
    expect(p(c, 'capacity_requested_mw').basicValue).toBe(''); // null: blank
    const fiber = c.properties.fiber as EntityValue;
    expect(fiber.type).toBe('Entity');
    expect(fiber.provider).toBeUndefined();
    expect(p(fiber, 'connectivity_score')).toMatchObject({ type: formatted, basicValue: 100 });
    expect(p(fiber, 'single_carrier_risk')).toEqual({ type: 'Boolean', basicValue: false });
    expect(p(fiber, 'top_carriers').basicValue).toBe('FiberLight 10.4 km');
    const nearby = c.properties.nearby as EntityValue;
    expect(Object.keys(nearby.properties)).toEqual(['name', 'substations_50km', 'generation_capacity_mw']);
    expect(names(c)).not.toContain('facilities_100km');
    expect(names(c)).not.toContain('total_capacity_mw');
  });

  it('project cards: name and MW as text, every queue field, the hand-off as a nested card, the answer’s licence on the citation', () => {
    const [c] = projectCards(QUEUE, ctx(host.excelApi119));
    valid(c, excelApi);
    expect(c.text).toBe('Copper Hollow Energy Center · 2,568 MW');
    expect(c.layouts.compact.icon).toBe('Power');
    expect(p(c, 'capacity_mw')).toMatchObject({ basicValue: 2568.2, numberFormat: '#,##0 "MW"' });
    expect(p(c, 'queue_date')).toMatchObject({ basicValue: 42959, numberFormat: 'yyyy-mm-dd' });
    expect(p(c, 'fiber_km').basicValue).toBe('');
    expect(p(c, 'id').basicValue).toBe('cand_09e7');
    expect(p(c, 'citation').propertyMetadata.attribution[0]).toMatchObject({
      sourceText: 'DC Hub, dchub.cloud',
      licenseText: 'CC-BY-4.0',
    });
    expect(p(c, 'citation').basicValue).toBe('Data: DC Hub (dchub.cloud), CC-BY-4.0. Retrieved 2026-11-21.');
    expect(JSON.stringify(c).length).toBeLessThan(4000); // 1,000 of them within Excel on the web's 5 MB
    const handoff = c.properties.site_evaluation_handoff as EntityValue;
    expect(p(handoff.properties.analyze_site as EntityValue, 'include_fiber')).toEqual({
      type: 'Boolean',
      basicValue: true,
    });
  });

  it('property names are snake_case, with no quote: dot syntax needs no brackets', () => {
    const all = [
      marketCard(DCPI, ctx(host.excelApi119)),
      siteCard(SITE, ctx(host.excelApi119)),
      ...projectCards(QUEUE, ctx(host.excelApi119)),
    ];
    for (const c of all) for (const n of names(c)) expect(n).toMatch(/^[a-z][a-z0-9_]*$/);
  });
});

describe('cards as RANK candidates', () => {
  it('a card’s id is the id, its numeric properties the metrics (nested ones by dotted path); dates and blanks are not metrics', () => {
    const site = siteCard(SITE, ctx(true));
    const [project] = projectCards(QUEUE, ctx(false));
    const [a, b] = cardCandidates([[site], [project]])!;
    expect(a).toMatchObject({
      id: '39.04,-77.49',
      lat: 39.04,
      lon: -77.49,
      overall_score: 86.5,
      'fiber.connectivity_score': 100,
      'nearby.substations_50km': 64,
    });
    expect(a).not.toHaveProperty('as_of');
    expect(a).not.toHaveProperty('capacity_requested_mw');
    expect(b).toMatchObject({
      id: 'cand_09e7',
      lat: 32.49,
      lng: -96.75,
      capacity_mw: 2568.2,
      'site_evaluation_handoff.analyze_site.capacity_mw': 2568.2,
    });
    expect(b).not.toHaveProperty('queue_date');
    expect(b).not.toHaveProperty('fiber_km');
  });

  it('a range without cards is not read as cards; cards mixed with other values are refused by name; empty cells are skipped', () => {
    expect(
      cardCandidates([
        ['id', 'lat'],
        ['a', 1],
      ]),
    ).toBeUndefined();
    const c = marketCard(DCPI, ctx(true));
    expect(() => cardCandidates([[c], ['text']])).toThrow(/candidates: mixes cards with other values/);
    expect(cardCandidates([[c], [null], [0], ['']])).toHaveLength(1);
  });

  it('the leaderboard as cards keeps the service’s order', () => {
    const lb = {
      leaderboard: [
        { ...DCPI, rank: 1 },
        { ...DCPI, market_slug: 'austin', market_name: 'Austin', rank: 2 },
      ],
    };
    expect(leaderboardCards(lb, ctx(true)).map((c) => c.text)).toEqual([
      'Dallas · CAUTION · 47.1',
      'Austin · CAUTION · 47.1',
    ]);
  });
});
