import { expect } from 'vitest';
import { siteScore } from '../shapes.js';
import type { ReplayCase } from '../types.js';

const S = '/api/site-score';

export const siteCases: ReplayCase[] = [
  {
    name: 'score: the June answer (no fiber block) reads',
    source: 'notes §2.15',
    keyed: true,
    routes: [{ path: S, reply: { body: siteScore() } }],
    runs: [
      {
        argv: ['score', '33.45', '-112.07', '--capacity-mw', '100', '--format', 'csv'],
        expect: { code: 0, stdout: ['overall_score,71.4', 'scores.risk_resilience,62', 'nearby.substations_50km,12'] },
      },
    ],
    portable: { code: 0, argv: ['score', '33.45', '-112.07', '--capacity-mw', '100'] },
  },
  {
    name: 'score: the request carries the real spelling `capacity` beside capacity_mw',
    source: 'notes §2.15, §9',
    keyed: true,
    routes: [{ path: S, query: { capacity: '100', lon: '-112.07' }, reply: { body: siteScore() } }],
    runs: [{ argv: ['score', '33.45', '-112.07', '--capacity-mw', '100'], expect: { code: 0, stdout: ['Good site'] } }],
    // A counterpart that reads only `capacity` echoes the capacity back.
    portable: {
      code: 0,
      argv: ['score', '33.45', '-112.07', '--capacity-mw', '100', '--format', 'json'],
      json: (o) => expect(o.capacity_requested_mw).toBe(100),
    },
  },
  {
    name: 'score: below Pro — every score null, a preview marker: delivered as blanks and marked as a preview',
    source: 'notes §2.15 (Sep-2026 preview), issue 10',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          body: {
            success: true,
            location: { lat: 33.45, lon: -112.07, state: 'AZ' },
            overall_score: null,
            verdict_band: 'good',
            interpretation: 'Good site (preview band)',
            scores: {
              power_infrastructure: null,
              gas_pipeline_access: null,
              fiber_connectivity: null,
              market_conditions: null,
              risk_resilience: null,
            },
            nearby: { facilities_100km: 14, substations_50km: 12 },
            _gated: true,
            _preview_only: true,
            _locked_fields: ['overall_score', 'scores'],
            required_plan: 'pro',
            upgrade_url: 'https://dchub.cloud/pricing',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07', '--format', 'csv'],
        expect: {
          code: 0,
          stdout: [
            'overall_score,\r\n',
            'scores.power_infrastructure,\r\n',
            'nearby.facilities_100km,14',
            'Good site (preview band)',
          ],
          notStdout: ['overall_score,0'],
          stderr: [
            /^dchub: Preview; withheld: overall_score, scores; the Pro plan opens the full answer: https:\/\/dchub\.cloud\/pricing\.$/m,
          ],
        },
      },
    ],
    portable: {
      code: 0,
      tier: 'free',
      argv: ['score', '33.45', '-112.07', '--format', 'csv'],
      stdout: [
        'overall_score,\r\n',
        'scores.power_infrastructure,\r\n',
        /^nearby\.facilities_100km,\d+\r$/m,
        /^interpretation,\S/m,
      ],
      notStdout: ['overall_score,0'],
      stderr: [
        /^dchub: Preview; withheld: (fiber, )?overall_score, scores; the Pro plan opens the full answer: https:\/\/\S+\.$/m,
      ],
    },
  },
  {
    name: 'score: the legacy {success, data} envelope with decimal strings',
    source: 'notes §1.2; issue 10',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          body: {
            success: true,
            data: { ...siteScore(), overall_score: '71.4', location: { lat: '33.45', lng: '-112.07' } },
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o).toMatchObject({ overall_score: 71.4, location: { lat: 33.45, lon: -112.07 } }),
        },
      },
    ],
  },
  {
    name: 'score: lat/lon of 0 → the service’s 400, exit 2 with its words',
    source: 'notes §2.15 (missing or zero → 400)',
    keyed: true,
    routes: [{ path: S, reply: { status: 400, body: { success: false, error: 'lat and lon are required' } } }],
    runs: [{ argv: ['score', '0', '0'], expect: { code: 2, stderr: [/^dchub: request: lat and lon are required$/m] } }],
    portable: { code: 2, argv: ['score', '0', '0'], stderr: [/^dchub: request: lat and lon are required$/m] },
  },
  {
    name: 'score: keyless after the allowance → 402 paid preview, exit 3 with how to unlock',
    source: 'notes §1.4 (402), §2.15',
    routes: [
      {
        path: S,
        reply: {
          status: 402,
          body: {
            status: 'paid_preview',
            preview: true,
            human_message: 'Site scoring is a paid tool: the preview shows the verdict band only.',
            upgrade_url: 'https://dchub.cloud/pricing',
            agent_action: { type: 'checkout', method: 'GET', url: 'https://dchub.cloud/pricing', then: 'retry' },
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: Site scoring is a paid tool: the preview shows the verdict band only\. \(unlock: https:\/\/dchub\.cloud\/pricing\)$/m,
          ],
        },
      },
    ],
    // The keyless allowance of full scores is spent first (two a day on the sandbox's real profile).
    portable: {
      code: 3,
      before: [
        ['score', '33.45', '-112.07'],
        ['score', '33.46', '-112.07'],
      ],
      argv: ['score', '33.47', '-112.07'],
      stderr: [/^dchub: Site scoring is a [^\n]*\(unlock: https:\/\/\S+\)$/m],
    },
  },
  {
    name: 'score: June 403 plan_required, exit 3 in one line',
    source: 'notes §1.4 (site-score 403)',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          status: 403,
          body: {
            error: 'plan_required',
            message: 'Site scoring requires Pro plan. Upgrade at dchub.cloud/pricing',
            upgrade_url: 'https://dchub.cloud/pricing',
            success: false,
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: Site scoring requires Pro plan\. Upgrade at dchub\.cloud\/pricing; upgrade: https:\/\/dchub\.cloud\/pricing$/m,
          ],
        },
      },
    ],
  },
  {
    name: 'score: the rich 403 gate (no credential) names the plans and the upgrade',
    source: 'notes §1.4 (require_plan rich gate)',
    routes: [
      {
        path: S,
        reply: {
          status: 403,
          body: {
            success: false,
            error: 'plan_required',
            message: 'This endpoint requires a Pro plan or higher.',
            current_plan: 'free',
            required_plan: 'pro',
            signup_url: 'https://dchub.cloud/signup',
            pricing_url: 'https://dchub.cloud/pricing',
            upgrade_url: 'https://dchub.cloud/go/c/pro',
            free_alternative: '/api/v1/stats',
            tier_signal: 'hard_paywall',
            agent_claim: { url: 'https://dchub.cloud/api/v1/keys/claim', method: 'POST' },
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: This endpoint requires a Pro plan or higher \(your plan: free\); upgrade: https:\/\/dchub\.cloud\/go\/c\/pro$/m,
          ],
        },
      },
    ],
  },
  {
    name: 'score: 401 invalid_api_key points to where keys are made',
    source: 'notes §1.4 (401)',
    keyed: true,
    routes: [
      {
        path: S,
        reply: {
          status: 401,
          headers: { 'Cache-Control': 'no-store' },
          body: {
            success: false,
            error: 'invalid_api_key',
            message: 'Invalid or inactive API key',
            get_key_url: 'https://dchub.cloud/dashboard.html#api-keys',
          },
        },
      },
    ],
    runs: [
      {
        argv: ['score', '33.45', '-112.07'],
        expect: {
          code: 3,
          stderr: [
            /^dchub: Invalid or inactive API key$/m,
            /^dchub: how to get a key: https:\/\/dchub\.cloud\/dashboard\.html#api-keys$/m,
          ],
        },
      },
    ],
    portable: { code: 3, argv: ['score', '33.45', '-112.07', '--api-key', 'dch_live_not_a_real_key_0000000000000'] },
  },
  {
    name: 'score: an answer without overall_score cannot serve: exit 5 naming the path',
    source: 'issue 10 (SchemaDriftError names the path)',
    keyed: true,
    routes: [{ path: S, reply: { body: { ...siteScore(), overall_score: undefined } } }],
    runs: [
      {
        argv: ['score', '33.45', '-112.07'],
        expect: { code: 5, stderr: [/^dchub: response did not match at overall_score: missing$/m] },
      },
    ],
  },
];
