import { expect } from 'vitest';
import type { ReplayCase } from '../types.js';

const LIST = '/api/v1/markets/list';
const DCPI = (slug: string) => `/api/v1/dcpi/scores/${slug}`;

const market = (id: string | undefined, name: string, extra: Record<string, unknown> = {}) => ({
  ...(id === undefined ? {} : { id }),
  name,
  cities: [name],
  facility_count: 40,
  total_power_mw: 812.5,
  ...extra,
});

const dcpiRow = (over: Record<string, unknown> = {}) => ({
  id: 101,
  market_slug: 'ashburn',
  market_name: 'Ashburn',
  state: 'VA',
  iso: 'PJM',
  latitude: 39.04,
  longitude: -77.49,
  constraint_score: 60.2,
  excess_power_score: 45.5,
  time_to_power_months: 50.5,
  queue_capacity_mw: 12000,
  queue_wait_months: 60,
  reserve_margin_pct: 12.0,
  gen_additions_12mo_mw: 800,
  curtailment_pct: 1.2,
  stranded_capacity_mw: 0,
  emergency_count_30d: 1,
  top_risks_json: ['60-month interconnection queue'],
  top_opportunities_json: ['synthetic opportunity'],
  verdict: 'AVOID',
  tier_required: 'free',
  trend_30d: null,
  published: true,
  quality_score: 82,
  avg_kwh_cents: 8.1,
  computed_at: '2026-11-21T06:00:00+00:00',
  composite_score: 32.9,
  forecast: { available: false, reason: 'insufficient_history', samples_in_30d: 2 },
  ...over,
});

export const marketCases: ReplayCase[] = [
  {
    name: 'markets: ids with spaces, a missing id, state null abroad, the anonymous 5-row cap as a preview',
    source: 'notes §2.2, §8',
    routes: [
      {
        path: LIST,
        reply: {
          body: {
            success: true,
            count: 3,
            total: 60,
            tier: 'anonymous',
            locked: 57,
            upsell: 'Sign up free for 10 markets',
            upgrade_url: null,
            signup_url: 'https://dchub.cloud/signup',
            data: [
              market('northern virginia', 'Northern Virginia', { state: 'VA' }),
              market(undefined, 'Frankfurt', { state: null, country: 'DE', international: true }),
              market('ashburn', 'Ashburn', { total_power_mw: '640.0', auto_discovered: true }),
            ],
          },
        },
      },
    ],
    runs: [
      {
        argv: ['markets', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => {
            expect(o.data.map((m: { id: string }) => m.id)).toEqual(['northern virginia', 'frankfurt', 'ashburn']);
            expect(o.data[2].total_power_mw).toBe(640);
          },
          stderr: [
            /^dchub: Preview: 3 of 60 rows shown; Sign up free for 10 markets: https:\/\/dchub\.cloud\/signup\.$/m,
            /^dchub: warning: 1 market without an id: the slug or name stands in$/m,
          ],
        },
      },
    ],
    portable: { code: 0, argv: ['markets'] },
  },
  {
    name: 'markets: a bare list without success or counts',
    source: 'issue 10 (lists without success)',
    routes: [{ path: LIST, reply: { body: [market('dallas', 'Dallas'), market('phoenix', 'Phoenix')] } }],
    runs: [{ argv: ['markets'], expect: { code: 0, stdout: ['dallas', 'Phoenix'] } }],
  },
  {
    name: 'markets <name>: more than 5 recent facilities and a "null" status key still read',
    source: 'notes §2.3',
    routes: [
      {
        path: '/api/v1/markets/dallas',
        reply: {
          body: {
            success: true,
            market: { id: 'dallas', name: 'Dallas', cities: ['Dallas', 'Plano'] },
            stats: { facility_count: 185, total_power_mw: 1800.0, avg_power_mw: 9.7, provider_count: 60 },
            top_providers: Array.from({ length: 11 }, (_, i) => ({
              name: `Provider ${i}`,
              facilities: 20 - i,
              power_mw: 100 + i,
            })),
            by_status: { operational: 120, construction: 8, null: 3 },
            recent_facilities: Array.from({ length: 7 }, (_, i) => ({
              id: 8000 + i,
              name: `Synthetic DC ${i}`,
              provider: i === 3 ? null : 'Synthetic',
              city: 'Dallas',
              power_mw: i === 2 ? null : 12,
              status: null,
            })),
          },
        },
      },
    ],
    runs: [
      {
        argv: ['markets', 'dallas', '--format', 'json'],
        expect: { code: 0, json: (o) => expect(o.recent_facilities).toHaveLength(7) },
      },
    ],
    portable: { code: 0, argv: ['markets', 'dallas'] },
  },
  {
    name: 'markets <name>: 404 Market not found, exit 2 (a name the service does not know)',
    source: 'notes §1.4',
    routes: [
      {
        path: '/api/v1/markets/atlantis',
        reply: { status: 404, body: { error: 'Market not found', code: 'NOT_FOUND' } },
      },
    ],
    runs: [{ argv: ['markets', 'atlantis'], expect: { code: 2, stderr: [/^dchub: Market not found$/m] } }],
    portable: { code: 2, argv: ['markets', 'no-such-market-anywhere'] },
  },
  {
    name: 'dcpi: below Developer the scores are null: blanks, the verdict kept, marked as a preview',
    source: 'notes §2.6 (Sep-2026 gating)',
    routes: [
      {
        path: DCPI('dallas'),
        reply: {
          body: dcpiRow({
            market_slug: 'dallas',
            market_name: 'Dallas',
            composite_score: null,
            excess_power_score: null,
            constraint_score: null,
            time_to_power_months: null,
            queue_capacity_mw: null,
            top_risks_json: null,
            top_opportunities_json: null,
            _gated: true,
            _preview_only: true,
            _locked_fields: ['composite_score', 'constraint_score', 'excess_power_score', 'time_to_power_months'],
            _required_tier: 'developer',
            upgrade_url: 'https://dchub.cloud/pricing',
          }),
        },
      },
    ],
    runs: [
      {
        argv: ['dcpi', 'dallas', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['verdict,AVOID', 'composite_score,\r\n', 'excess_power_score,\r\n'],
          notStdout: ['composite_score,0'],
          stderr: [
            /^dchub: Preview; withheld: composite_score, constraint_score, excess_power_score, time_to_power_months; the Developer plan opens the full answer: https:\/\/dchub\.cloud\/pricing\.$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['dcpi', 'dallas', '--format', 'csv'],
      stdout: [
        /^verdict,(BUILD|CAUTION|AVOID|LOW_SIGNAL|NODATA)\r$/m,
        'composite_score,\r\n',
        'excess_power_score,\r\n',
        'time_to_power_months,\r\n',
      ],
      notStdout: ['composite_score,0'],
      stderr: [
        /^dchub: Preview; withheld: composite_score, constraint_score, excess_power_score, time_to_power_months; the Developer plan opens the full answer: https:\/\/\S+\.$/m,
      ],
    },
  },
  {
    name: 'dcpi: an alias resolved by the service (_requested_slug, _canonical_slug) with the narrative',
    source: 'notes §2.6, §8',
    routes: [
      {
        path: DCPI('northern-virginia'),
        reply: {
          headers: { ETag: '"dcpi-1"' },
          body: dcpiRow({
            _requested_slug: 'northern-virginia',
            _canonical_slug: 'ashburn',
            narrative: { text: 'Synthetic analyst read.', model: 'replay', license: 'CC-BY-4.0' },
          }),
        },
      },
    ],
    runs: [
      {
        argv: ['dcpi', 'northern-virginia', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) =>
            expect(o).toMatchObject({
              market_slug: 'ashburn',
              _canonical_slug: 'ashburn',
              verdict: 'AVOID',
              composite_score: 32.9,
            }),
        },
      },
    ],
    portable: { code: 0, argv: ['dcpi', 'northern-virginia'] },
  },
  {
    name: 'dcpi: 404 market not found, exit 2',
    source: 'notes §1.4',
    routes: [{ path: DCPI('atlantis'), reply: { status: 404, body: { error: 'market not found', slug: 'atlantis' } } }],
    runs: [{ argv: ['dcpi', 'atlantis'], expect: { code: 2, stderr: [/^dchub: market not found$/m] } }],
    portable: { code: 2, argv: ['dcpi', 'atlantis'], stderr: [/^dchub: market not found$/m] },
  },
];
