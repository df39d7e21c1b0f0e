import { expect } from 'vitest';
import { BRIEF_CSV_HEADER, HTML, brief, briefCsvRow, gatewayPage } from '../shapes.js';
import type { ReplayCase } from '../types.js';

const CSV = '/api/v1/market-brief/all.csv';
const ALL = '/api/v1/market-brief/all';
const DIFF = '/api/v1/market-brief/diff';
const csvHeaders = {
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': 'attachment; filename="dchub-market-briefs-2026-11-21.csv"',
};
const csv = (...rows: string[]) => [BRIEF_CSV_HEADER, ...rows].join('\r\n') + '\r\n';
/** A brief of the five every tier sees failed to build today (the sandbox's real profile fails one a day). */
const FAILED =
  /^dchub: warning: [a-z-]+: brief failed to build on the service \(build_failed:KeyError(:hero)?\) \(left out\)$/m;
const allPage = (briefs: unknown[], extra: Record<string, unknown> = {}) => ({
  as_of: '2026-11-21T12:00:00.000000Z',
  tier: 'FREE',
  count: briefs.length,
  total_available: 5,
  limit: 50,
  offset: 0,
  streamed: false,
  briefs,
  ...extra,
});

export const briefCases: ReplayCase[] = [
  {
    name: 'briefs: the CSV with the Python-repr top_operator quirk',
    source: 'notes §2.29 (all.csv)',
    routes: [
      {
        path: CSV,
        reply: {
          headers: csvHeaders,
          body: csv(
            briefCsvRow('northern-virginia', 'Northern Virginia', 'AVOID', '18.7'),
            briefCsvRow('dallas', 'Dallas', 'BUILD', '71.3'),
          ),
        },
      },
    ],
    runs: [
      {
        argv: ['briefs', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: [
            /^northern-virginia,Northern Virginia,AVOID,18\.7,45\.5,60\.2,,PJM,,3500,9600,275,,,Synthetic Operator,0,/m,
            'dallas,Dallas,BUILD,71.3',
          ],
          notStdout: ["{'name'"],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['briefs', '--format', 'csv'],
      stdout: [/^market_slug,market_name,verdict,composite_score,/, /^northern-virginia,|^dallas,/m],
      notStdout: ["{'name'"],
    },
  },
  {
    name: 'briefs --csv prints the CSV as served',
    source: 'notes §2.29',
    routes: [
      { path: CSV, reply: { headers: csvHeaders, body: csv(briefCsvRow('dallas', 'Dallas', 'BUILD', '71.3')) } },
    ],
    runs: [
      {
        argv: ['briefs', '--csv'],
        expect: { code: 0, stdout: [BRIEF_CSV_HEADER, "\"{'name': 'Synthetic Operator', 'facility_count': 15}\""] },
      },
    ],
    portable: { code: 0, argv: ['briefs', '--csv'], stdout: [BRIEF_CSV_HEADER] },
  },
  {
    name: 'briefs: a streamed failure row (build_failed) is named and left out',
    source: 'notes §2.29 (streamed failure rows)',
    routes: [
      {
        path: CSV,
        reply: {
          headers: { ...csvHeaders, 'X-Total-Available': '3' },
          body: csv(
            briefCsvRow('dallas', 'Dallas', 'BUILD', '71.3'),
            'chicago,,,,,,,,,,,,,,,,,build_failed:KeyError',
            briefCsvRow('phoenix', 'Phoenix', 'CAUTION', '52.0'),
          ),
        },
      },
    ],
    runs: [
      {
        argv: ['briefs'],
        expect: {
          code: 0,
          stdout: ['dallas', 'phoenix'],
          notStdout: ['chicago'],
          stderr: [
            /^dchub: warning: chicago: brief failed to build on the service \(build_failed:KeyError\) \(left out\)$/m,
          ],
        },
      },
    ],
    // The failed row took its place in the paging: all 3 of 3 were served, no second page is asked.
    requests: 1,
    portable: { code: 0, argv: ['briefs'], stderr: [FAILED], notStderr: [/briefs page 2/] },
  },
  {
    name: 'briefs: a CSV missing columns keeps what is there and says which are blank',
    source: 'issue 10 (partial answers)',
    routes: [
      {
        path: CSV,
        reply: {
          headers: csvHeaders,
          body: 'market_slug,market_name,verdict,composite_score,computed_at\r\ndallas,Dallas,BUILD,71.3,2026-11-21T06:00:00+00:00\r\n',
        },
      },
    ],
    runs: [
      {
        argv: ['briefs', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['dallas,Dallas,BUILD,71.3,,,,,,,,,,,,,,2026-11-21T06:00:00+00:00'],
          stderr: [/^dchub: warning: brief CSV lacks excess_power, constraint_score, .*live_as_of \(left blank\)$/m],
        },
      },
    ],
  },
  {
    name: 'briefs --limit: one brief of /all failed to build (ok:false) — named, the rest survive',
    source: 'notes §2.29 (/all failed brief)',
    routes: [
      {
        path: ALL,
        reply: {
          body: allPage([
            brief('northern-virginia'),
            brief('dallas'),
            { ok: false, slug: 'chicago', error: 'build_failed:KeyError' },
            brief('atlanta'),
          ]),
        },
      },
    ],
    runs: [
      {
        argv: ['briefs', '--limit', '5', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['northern-virginia,', 'dallas,', 'atlanta,'],
          notStdout: ['chicago'],
          stderr: [
            /^dchub: warning: chicago: brief failed to build on the service \(build_failed:KeyError\) \(left out\)$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['briefs', '--limit', '5', '--format', 'json'],
      stderr: [FAILED],
      json: (o) => {
        expect(o.briefs.length).toBe(o.total_available - 1);
        expect(o.briefs.every((b: { hero?: { verdict?: string } }) => typeof b.hero?.verdict === 'string')).toBe(true);
      },
    },
  },
  {
    name: 'briefs --limit: a brief without its hero is named as failed',
    source: 'issue 10 (no hero)',
    routes: [{ path: ALL, reply: { body: allPage([brief('dallas'), { slug: 'chicago', kpis: {} }]) } }],
    runs: [
      {
        argv: ['briefs', '--limit', '5'],
        expect: {
          code: 0,
          stdout: ['dallas'],
          stderr: [/^dchub: warning: chicago: brief failed to build on the service \(left out\)$/m],
        },
      },
    ],
  },
  {
    name: 'briefs --limit: below Pro the paywalled sections are named with the plan that opens them',
    source: 'notes §2.29 (paywall)',
    routes: [{ path: ALL, reply: { body: allPage([brief('dallas'), brief('phoenix')]) } }],
    runs: [
      {
        argv: ['briefs', '--limit', '5', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o.briefs.map((b: { slug: string }) => b.slug)).toEqual(['dallas', 'phoenix']),
          stderr: [
            /^dchub: Preview; sections withheld: power_grid, pipeline, operators, ma, comps, risk; the Pro plan opens the full answer: https:\/\/dchub\.cloud\/pricing\?utm_source=market_brief\.$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['briefs', '--limit', '5'],
      stderr: [
        /^dchub: Preview; sections withheld: power_grid, pipeline, operators, ma, comps, risk; the Pro plan opens the full answer: \S+\.$/m,
      ],
    },
  },
  {
    name: 'briefs: the bulk daily cap (429 daily_cap_exceeded, Retry-After 3600) fails at once with the reset time',
    source: 'notes §1.4 (market-brief 429), §2.29',
    routes: [
      {
        path: CSV,
        reply: {
          status: 429,
          headers: { 'Retry-After': '3600', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0' },
          body: {
            error: 'daily_cap_exceeded',
            tool: 'market_brief_all_csv',
            tier: 'FREE',
            limit: '10/day',
            current_count: 10,
            upgrade_url: '/pricing?utm_source=market_brief_bulk',
            message: 'Daily cap of 10/day reached for market_brief_all_csv on the FREE tier.',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['briefs'],
        expect: {
          code: 4,
          stderr: [
            /^dchub: Daily cap of 10\/day reached for market_brief_all_csv on the FREE tier; resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m,
          ],
        },
      },
    ],
    // Keyless callers have 3 bulk reads a day on the sandbox's real profile; the fourth meets the cap.
    portable: {
      code: 4,
      before: [
        ['briefs', '--no-cache'],
        ['briefs', '--no-cache'],
        ['briefs', '--no-cache'],
      ],
      argv: ['briefs', '--no-cache'],
      stderr: [/^dchub: [^\n]*market_brief_all_csv[^\n]*; resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/m],
    },
  },
  {
    name: 'briefs --since: the diff envelope with since null and changed_total',
    source: 'notes §2.29 (/diff)',
    routes: [{ path: DIFF, reply: { body: { ...allPage([brief('dallas')]), since: null, changed_total: 1 } } }],
    runs: [
      {
        argv: ['briefs', '--since', '2026-11-20T06:00:00Z', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: [/^dallas,Dallas,/m],
          stderr: [/^dchub: 1 briefs recomputed since 2026-11-20T06:00:00Z$/m],
        },
      },
    ],
    portable: {
      code: 0,
      tier: 'enterprise',
      argv: ['briefs', '--since', '2026-10-01T00:00:00Z', '--format', 'csv'],
      stdout: [/^market_slug,/, /^[a-z-]+,[^,]+,(BUILD|CAUTION|AVOID|LOW_SIGNAL|NODATA),/m],
      stderr: [/^dchub: \d+ briefs recomputed since 2026-10-01T00:00:00Z$/m],
    },
  },
  {
    name: 'briefs: a failed refresh (HTML 524) serves the last good CSV, marked stale with its age and reason',
    source: 'issue 10 (stale answers, one rule)',
    routes: [
      {
        path: CSV,
        reply: [
          { headers: csvHeaders, body: csv(briefCsvRow('dallas', 'Dallas', 'BUILD', '71.3')) },
          { status: 524, headers: HTML, body: gatewayPage(524, 'A timeout occurred') },
        ],
      },
    ],
    runs: [
      { argv: ['briefs', '--format', 'csv'], expect: { code: 0, stdout: ['dallas,Dallas,BUILD,71.3'] } },
      {
        argv: ['briefs', '--format', 'csv', '--refresh'],
        expect: {
          code: 0,
          stdout: ['dallas,Dallas,BUILD,71.3'],
          stderr: [/^dchub: served from the cache \(\d+ s old\): service error$/m],
        },
      },
    ],
    portable: {
      code: 0,
      before: [['briefs', '--format', 'csv']],
      faults: [{ path_prefix: '/api/v1/market-brief', kind: 'html_gateway', gateway_status: 524 }],
      argv: ['briefs', '--format', 'csv', '--refresh'],
      stdout: [/^market_slug,/, /^[a-z-]+,[^,]+,(BUILD|CAUTION|AVOID|LOW_SIGNAL|NODATA),/m],
      stderr: [/^dchub: served from the cache \(\d+ s old\): service error$/m],
      notStderr: [/[<>]/],
    },
  },
  {
    name: 'briefs --limit: a malformed refresh is never stored; the good answer stays',
    source: 'issue 10 (never store the bad answer)',
    routes: [
      {
        path: ALL,
        reply: [
          { body: allPage([brief('dallas')]) },
          { body: '{"as_of": "2026-11-21", "briefs": [{"slug": "dal' },
          { body: allPage([brief('dallas'), brief('atlanta')]) },
        ],
      },
    ],
    runs: [
      { argv: ['briefs', '--limit', '5'], expect: { code: 0, stdout: ['dallas'] } },
      {
        argv: ['briefs', '--limit', '5', '--refresh'],
        expect: {
          code: 0,
          stdout: ['dallas'],
          stderr: [
            /^dchub: served from the cache \(\d+ s old\): the service's answer was unusable: \/api\/v1\/market-brief\/all answered malformed JSON$/m,
          ],
        },
      },
      {
        argv: ['briefs', '--limit', '5'],
        expect: {
          code: 0,
          stdout: ['dallas'],
          notStdout: ['atlanta'],
          stderr: [/^dchub: from the cache \(\d+ s old\)$/m],
        },
      },
    ],
    portable: {
      code: 0,
      before: [['briefs', '--limit', '5']],
      faults: [{ path_prefix: '/api/v1/market-brief/all', kind: 'malformed_json' }],
      argv: ['briefs', '--limit', '5', '--refresh'],
      stdout: [/northern-virginia|dallas|phoenix/],
      stderr: [
        /^dchub: served from the cache \(\d+ s old\): the service's answer was unusable: \/api\/v1\/market-brief\/all answered malformed JSON$/m,
      ],
    },
  },
];
