import { expect } from 'vitest';
import type { ReplayCase } from '../types.js';

const facility = (i: number, over: Record<string, unknown> = {}) => ({
  id: 8480 + i,
  name: `Synthetic Facility ${i}`,
  city: 'Berlin',
  state: null,
  country: 'DE',
  provider: 'Synthetic Provider',
  slug: `synthetic-facility-${i}-0a1b2c3d`,
  state_name: null,
  country_name: 'Germany',
  location_display: 'Berlin, DE',
  ...over,
});
const article = (i: number, over: Record<string, unknown> = {}) => ({
  id: 5000 + i,
  title: `Synthetic headline ${i}`,
  summary: 'Synthetic summary.',
  url: `https://news.example/${i}`,
  source: 'Synthetic Wire',
  published_at: `2026-11-21T0${i}:00:00Z`,
  category: 'general',
  ...over,
});

export const feedCases: ReplayCase[] = [
  {
    name: 'facilities: the keyless 5-row cut (basic fields, state null abroad) says how many match and what is withheld',
    source: 'notes §2.9 (no key)',
    routes: [
      {
        path: '/api/v1/facilities',
        reply: {
          body: {
            success: true,
            data: [0, 1, 2, 3, 4].map((i) => facility(i)),
            count: 5,
            total_matching: 312,
            full_results_available: true,
            tier: 'free',
            upgrade_url: 'https://dchub.cloud/pricing',
            note: 'Free tier: showing 5 of 312 matching facilities with basic fields. Get a free API key for more.',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['facilities', 'berlin', '--country', 'DE', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['8480,Synthetic Facility 0,Synthetic Provider', 'Berlin,,DE'],
          stderr: [
            /^dchub: Preview: 5 of 312 rows shown; withheld: latitude, longitude, market, operator, power_mw, status; Free tier: showing 5 of 312 matching facilities with basic fields\. Get a free API key for more: https:\/\/dchub\.cloud\/pricing\.$/m,
          ],
        },
      },
    ],
    portable: { code: 0, argv: ['facilities', 'dallas'] },
  },
  {
    name: 'facilities: the keyed legacy rows (no slug, coordinates as text, pagination) read into the same table',
    source: 'notes §2.9 (key sent)',
    keyed: true,
    routes: [
      {
        path: '/api/v1/facilities',
        reply: {
          body: {
            success: true,
            data: [0, 1].map((i) => ({
              id: 10 + i,
              name: `Legacy DC ${i}`,
              provider: 'Synthetic',
              operator: 'Synthetic',
              city: 'Ashburn',
              state: 'VA',
              country: 'US',
              region: 'NA',
              latitude: '39.04',
              longitude: '-77.49',
              power_mw: i ? null : '36.0',
              status: 'operational',
              market: null,
              confidence_badge: 'high',
            })),
            pagination: { page: 1, limit: 50, total: 275, pages: 6 },
          },
        },
      },
    ],
    runs: [
      {
        argv: ['facilities', 'ashburn', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o.data[0]).toMatchObject({ latitude: 39.04, longitude: -77.49, power_mw: 36 }),
          notStderr: [/^dchub: Preview/m],
        },
      },
    ],
  },
  {
    name: 'facilities: a key below Pro meets 403 plan_required, exit 3',
    source: 'notes §2.9 (key below Pro → 403)',
    keyed: true,
    routes: [
      {
        path: '/api/v1/facilities',
        reply: {
          status: 403,
          body: {
            success: false,
            error: 'plan_required',
            message: 'This endpoint requires a Pro plan or higher.',
            current_plan: 'free',
            required_plan: 'pro',
            upgrade_url: 'https://dchub.cloud/pricing',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['facilities', 'dallas'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: This endpoint requires a Pro plan or higher \(your plan: free\); upgrade: https:\/\/dchub\.cloud\/pricing$/m,
          ],
        },
      },
    ],
  },
  {
    name: 'news: /api/news with the duplicate `data` list, a row without id, a null category',
    source: 'notes §2.12',
    routes: [
      {
        path: '/api/news',
        reply: {
          body: {
            success: true,
            articles: [article(1), article(2, { id: undefined, category: null })],
            data: [article(1), article(2)],
            count: 2,
            total: 5120,
            source: 'postgresql/news_articles',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['news', '--limit', '2', '--format', 'csv'],
        expect: { code: 0, stdout: ['Synthetic headline 1', 'Synthetic headline 2'] },
      },
    ],
    portable: { code: 0, argv: ['news', '--limit', '2'] },
  },
  {
    name: 'news: an error answered with 200 {success:false} is a server error',
    source: 'notes §2.12 (errors as 200)',
    routes: [
      { path: '/api/news', reply: { body: { success: false, error: 'news tables unavailable', articles: [] } } },
    ],
    runs: [{ argv: ['news'], expect: { code: 5, stderr: [/^dchub: news tables unavailable$/m] } }],
  },
  {
    name: 'news: the "empty" answer of a failing database reads as no rows',
    source: 'notes §2.12 (all tables failing)',
    routes: [
      {
        path: '/api/news',
        reply: { body: { success: true, articles: [], data: [], count: 0, total: 0, source: 'empty' } },
      },
    ],
    runs: [{ argv: ['news', '--format', 'json'], expect: { code: 0, json: (o) => expect(o.articles).toEqual([]) } }],
  },
  {
    name: 'deals: keyless — 3 deals with basic fields and total_matching, described as a preview',
    source: 'notes §2.13 (no key)',
    routes: [
      {
        path: '/api/v1/transactions',
        reply: {
          body: {
            success: true,
            transactions: [1, 2, 3].map((i) => ({
              buyer: `Buyer ${i}`,
              seller: `Seller ${i}`,
              market: 'Dallas',
              date: `2026-05-2${i}`,
              type: 'ma',
              region: 'North America',
            })),
            data: [],
            count: 3,
            total_matching: 1932,
            total_tracked: 4979,
            full_results_available: true,
            data_source: 'live',
            tier: 'free',
            upgrade_url: 'https://dchub.cloud/pricing',
            note: 'Free tier: showing 3 of 1932 transactions with basic fields.',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['deals', '--limit', '50', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['2026-05-21,Buyer 1,Seller 1,ma', 'Dallas'],
          stderr: [
            /^dchub: Preview: 3 of 1,932 rows shown; withheld: id, mw, value, value_display, year; Free tier: showing 3 of 1932 transactions with basic fields: https:\/\/dchub\.cloud\/pricing\.$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['deals', '--format', 'csv'],
      stdout: [/^date,buyer,seller,type,/],
      stderr: [
        /^dchub: Preview: 3 of [\d,]+ rows shown; withheld: id, mw, value, value_display, year; [^\n]*: https:\/\/\S+\.$/m,
      ],
    },
  },
  {
    name: 'deals: the cached variant without statistics',
    source: 'notes §2.13 (cache hit variant)',
    keyed: true,
    routes: [
      {
        path: '/api/v1/transactions',
        reply: {
          body: {
            success: true,
            transactions: [
              {
                id: 1,
                date: '2026-05-20',
                year: 2026,
                buyer: 'A',
                seller: 'B',
                value: '1200.0',
                value_display: '$1.2B',
                mw: 300,
                type: 'ma',
                region: 'North America',
                market: 'Dallas',
              },
            ],
            data: [],
            count: 1,
            total_count: 250,
            total_value: 123456.0,
            data_source: 'cached',
            cached: true,
          },
        },
      },
    ],
    runs: [
      {
        argv: ['deals', '--format', 'json'],
        expect: { code: 0, json: (o) => expect(o.transactions[0].value).toBe(1200) },
      },
    ],
  },
  {
    name: 'deals: keyed without a filter → 400 search_filter_required, exit 2 with the service’s words',
    source: 'notes §1.4, §8',
    keyed: true,
    routes: [
      {
        path: '/api/v1/transactions',
        reply: {
          status: 400,
          body: {
            error: 'search_filter_required',
            message: 'At least one filter is required: year, buyer, seller',
            hint: 'Try adding a country, city, provider, or search query.',
            docs: 'https://dchub.cloud/api/docs',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['deals'],
        expect: { code: 2, stderr: [/^dchub: request: At least one filter is required: year, buyer, seller$/m] },
      },
    ],
    portable: {
      code: 2,
      argv: ['deals'],
      stderr: [/^dchub: request: At least one filter is required: year, buyer, seller$/m],
    },
  },
  {
    name: 'deals: a key below Pro meets the keyed wall (403 plan_upgrade_required), exit 3 in one line',
    source: 'notes §1.4 (keyed-walls gate), §2.13 checklist 1',
    keyed: true,
    routes: [
      {
        path: '/api/v1/transactions',
        reply: {
          status: 403,
          body: {
            success: false,
            error: 'plan_upgrade_required',
            required_plan: 'pro',
            current_plan: 'free',
            pricing_url: 'https://dchub.cloud/pricing',
            upgrade_url: 'https://dchub.cloud/go/c/pro',
            message:
              'A key on the Pro plan or above opens this endpoint over REST, and so does any valid key holding pack credits.',
            upgrade_options: [
              {
                plan: 'pack',
                opens: 'rest',
                label: '$10 one-time = 1,000 API credits',
                url: 'https://dchub.cloud/go/c/pack',
              },
            ],
          },
        },
      },
    ],
    runs: [
      {
        argv: ['deals', '--limit', '5'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: A key on the Pro plan or above opens this endpoint over REST, and so does any valid key holding pack credits \(your plan: free\); upgrade: https:\/\/dchub\.cloud\/go\/c\/pro$/m,
          ],
        },
      },
    ],
    portable: {
      code: 3,
      tier: 'free',
      argv: ['deals', '--limit', '5'],
      stderr: [
        /^dchub: A key on the Pro plan or above opens this endpoint[^\n]* \(your plan: free\); upgrade: https:\/\/\S+$/m,
      ],
    },
  },
  {
    name: 'deals: the keyless record cap (429 daily_limit_reached with resets_at) fails at once, exit 4',
    source: 'notes §1.4, §2.13 (record cap)',
    routes: [
      {
        path: '/api/v1/transactions',
        reply: {
          status: 429,
          body: {
            error: 'daily_limit_reached',
            message: 'Daily download limit reached for your free plan.',
            records_remaining: 0,
            upgrade_url: 'https://dchub.cloud/pricing',
            resets_at: '2026-11-22T00:00:00Z',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['deals'],
        expect: {
          code: 4,
          stderr: [/^dchub: Daily download limit reached for your free plan; resets at 2026-11-22T00:00:00Z$/m],
        },
      },
    ],
  },
];
