import {
  EnergyPrices,
  MarketBriefAll,
  MarketBriefDiff,
  SiteScoreQuery,
  TransactionList,
  siteScoreAliases,
} from '@dchub/core';
import { AUTH_INSTRUCTIONS_PATH } from '../labels.js';
import { gatedMarkers, PRICING_URL, SIGNUP_URL } from '../policy/gating.js';
import { MCP_ANON_RESULTS } from '../policy/tiers.js';
import type { Presenters } from './types.js';

/** The interface spec's shapes: the domain's answers as they are. */
export const specPresenters: Presenters = {
  profile: 'spec',
  access: {
    required: (_path, declared) => declared,
    refuse: (c, tier, required) =>
      tier === 'anonymous'
        ? {
            status: 401,
            body: {
              error: 'api_key_required',
              message: `This endpoint requires an API key (X-API-Key). Claim a free key instantly: POST ${SIGNUP_URL}`,
              auth_instructions: `${new URL(c.req.url).origin}${AUTH_INSTRUCTIONS_PATH}`,
            },
          }
        : {
            status: 403,
            body: {
              success: false,
              error: 'plan_required',
              message: `This endpoint requires the ${required} plan or higher.`,
              current_plan: tier,
              required_plan: required,
              pricing_url: PRICING_URL,
              upgrade_url: PRICING_URL,
            },
          },
    allowanceHeaders: (tier, limit, left, resetEpoch) => ({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(left),
      'X-RateLimit-Reset': String(resetEpoch),
      'X-RateLimit-Tier': tier,
    }),
    dailyLimit: (tier, limit, reset) => ({
      status: 429,
      headers: {
        'Retry-After': String(reset.seconds),
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(reset.epoch),
      },
      body: {
        error: 'daily_limit_reached',
        message: `Daily request limit reached for the ${tier} tier (${limit}/day).${tier === 'anonymous' ? ' Send X-API-Key, or claim a free key: POST /api/v1/keys/claim.' : ''}`,
        tier,
        limit,
        retry_after: reset.seconds,
        resets_at: reset.iso,
        upgrade_url: PRICING_URL,
      },
    }),
    unknownKeyHeaders: () => ({}),
  },
  queue: {
    previewFor: (tier) => tier === 'anonymous',
    present: (body) => body,
    fullHeaders: () => ({}),
  },
  site: {
    query: SiteScoreQuery,
    prepareQuery: siteScoreAliases,
    refuse: () => undefined,
    present: (score) => score,
  },
  dcpiMarket: (body) => body,
  aiCapacityGated: (tier) => tier === 'anonymous',
  aiCapacity: (body) => body,
  transactions: (_c, _tier, _q, compute) => ({ status: 200, body: compute(true) }),
  energyPrices: (body) => body,
  schemas: {
    energyPrices: EnergyPrices,
    briefAll: MarketBriefAll,
    briefDiff: MarketBriefDiff,
    transactions: TransactionList,
  },
  briefFails: () => false,
  failedBrief: (slug) => ({ ok: false, slug, error: 'build_failed' }),
  failedCsvLine: (slug) => slug,
  mcpWall: (wall) => ({
    content: [{ type: 'text', text: JSON.stringify(wall) }],
    structuredContent: wall,
    isError: true,
  }),
  mcpPartial: (_tool, key, total) => ({
    rows: MCP_ANON_RESULTS,
    extra: {
      ...gatedMarkers(total, MCP_ANON_RESULTS, 'IDENTIFIED'),
      preview_is_partial: true,
      _results_field: key,
      _results_withheld: total - MCP_ANON_RESULTS,
      [`_${key}_total_with_key`]: total,
    },
  }),
};
