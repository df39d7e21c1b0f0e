import { expect } from 'vitest';
import type { ReplayCase } from '../types.js';

const text = (o: unknown, tail = '') => [{ type: 'text' as const, text: JSON.stringify(o) + tail }];

export const mcpCases: ReplayCase[] = [
  {
    name: 'mcp: a Pro wall written for a human (pro_required, for_your_human) is a plan error, exit 3, with the upgrade URL',
    source: 'notes §3.1 (hard wall)',
    routes: [],
    mcp: {
      tool: 'analyze_site',
      result: {
        isError: true,
        content: text({
          error: 'pro_required',
          tool: 'analyze_site',
          _gated: true,
          _wall: true,
          required_plan: 'pro',
          user_message: 'analyze_site is part of DC Hub Pro.',
          show_to_user: true,
          for_your_human: {
            message: 'analyze_site is part of DC Hub Pro — upgrade to score sites.',
            url: 'https://dchub.cloud/go/c/pro-replay',
            render: 'verbatim_link_required',
          },
        }),
      },
    },
    runs: [
      {
        argv: ['tool', 'analyze_site', 'lat=33.45', 'lon=-112.07'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: analyze_site: analyze_site is part of DC Hub Pro; upgrade: https:\/\/dchub\.cloud\/go\/c\/pro-replay$/m,
          ],
          notStdout: [/pro_required/],
        },
      },
    ],
    portable: {
      code: 3,
      argv: ['tool', 'analyze_site', 'lat=33.45', 'lon=-112.07'],
      stderr: [/^dchub: analyze_site: [^\n]*\bPro\b[^\n]*https:\/\/\S+/m],
      notStdout: [/pro_required/],
    },
  },
  {
    name: 'mcp: a wall as plain text (no JSON) is a plan error too',
    source: 'notes §3.1 (Markdown upsell text)',
    routes: [],
    mcp: {
      tool: 'compare_sites',
      result: {
        isError: true,
        content: [
          { type: 'text', text: '🔒 compare_sites requires the Pro plan.\n\nUpgrade: https://dchub.cloud/pricing' },
        ],
      },
    },
    runs: [
      {
        argv: ['tool', 'compare_sites', 'locations=39,-77;32,-96'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: compare_sites: 🔒 compare_sites requires the Pro plan\. Upgrade: https:\/\/dchub\.cloud\/pricing$/m,
          ],
        },
      },
    ],
  },
  {
    name: 'mcp: a partial list preview ("3 of 10") is marked partial with what is withheld',
    source: 'notes §3.1 (preview markers, TRIAL_PREVIEW_ROWS = 3)',
    routes: [],
    mcp: {
      tool: 'search_facilities',
      result: {
        content: text(
          {
            results: [1, 2, 3].map((i) => ({ name: `Synthetic Facility ${i}`, city: 'Dallas', operator: 'Synthetic' })),
            preview_is_partial: true,
            trial_preview: true,
            _results_total_in_pro: 10,
            _power_mw_in_pro: true,
            for_your_human: { message: 'Showing 3 of 10 results.', url: 'https://dchub.cloud/go/c/trial' },
          },
          '\n\n---\n**Showing 3 of 10 results.** [Unlock all results](https://dchub.cloud/go/c/trial)',
        ),
      },
    },
    runs: [
      {
        argv: ['tool', 'search_facilities', 'query=dallas', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: ['Synthetic Facility 1,Dallas,Synthetic', 'Synthetic Facility 3'],
          stderr: [
            /^dchub: Preview: 3 of 10 rows shown; withheld: power_mw; Showing 3 of 10 results: https:\/\/dchub\.cloud\/go\/c\/trial\.$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['tool', 'search_facilities', 'query=dallas'],
      stderr: [/^dchub: Preview: \d+ of \d+ rows shown/m],
    },
  },
  {
    name: 'mcp: structuredContent is preferred; a complete answer is no preview',
    source: 'notes §3.1 (tool result shape)',
    routes: [],
    mcp: {
      tool: 'get_market_dcpi_rank',
      result: {
        content: [{ type: 'text', text: 'See structuredContent.' }],
        structuredContent: { market_slug: 'dallas', verdict: 'BUILD', composite_score: 71.3 },
      },
    },
    runs: [
      {
        argv: ['tool', 'get_market_dcpi_rank', 'market_slug=dallas', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o).toEqual({ market_slug: 'dallas', verdict: 'BUILD', composite_score: 71.3 }),
          notStderr: [/preview/],
        },
      },
    ],
  },
  {
    name: 'mcp: the daily allowance answered as a tool error is a rate limit, exit 4',
    source: 'notes §3.1 (anonymous quota)',
    routes: [],
    mcp: {
      tool: 'get_news',
      result: {
        isError: true,
        content: text({
          error: 'daily_limit_reached',
          tool: 'get_news',
          tier: 'anonymous',
          limit: '10/day',
          message: 'MCP daily allowance reached for the anonymous tier (10 calls/day).',
          resets_at: '2026-11-22T00:00:00Z',
        }),
      },
    },
    runs: [
      {
        argv: ['tool', 'get_news'],
        expect: {
          code: 4,
          stderr: [
            /^dchub: get_news: MCP daily allowance reached for the anonymous tier \(10 calls\/day\); resets at 2026-11-22T00:00:00Z$/m,
          ],
        },
      },
    ],
    // Ten keyless calls spend the day on the sandbox's real profile; the eleventh is the tool's refusal.
    portable: {
      code: 4,
      before: Array.from({ length: 10 }, (_, i) => ['tool', 'get_news', `limit=${i + 1}`]),
      argv: ['tool', 'get_news', 'limit=11'],
      stderr: [
        /^dchub: get_news: MCP daily allowance reached for the anonymous tier \(10 calls\/day\)[^\n]*; resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/m,
      ],
    },
  },
  {
    name: 'mcp: a tool’s argument error stays an argument error, exit 2',
    source: 'notes §3.2 (compare_isos needs 2-4)',
    routes: [],
    mcp: {
      tool: 'compare_isos',
      result: {
        isError: true,
        content: text({ error: 'compare_isos needs 2-4 ISOs', supported_isos: ['PJM', 'ERCOT'] }),
      },
    },
    runs: [
      {
        argv: ['tool', 'compare_isos', 'isos=PJM'],
        expect: { code: 2, stderr: [/^dchub: compare_isos: compare_isos needs 2-4 ISOs$/m] },
      },
    ],
    portable: { code: 2, argv: ['tool', 'compare_isos', 'isos=PJM'], stderr: [/^dchub: compare_isos: [^\n]*2-4/m] },
  },
];
