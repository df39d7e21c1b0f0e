/** The real service's shapes per resource (reference notes §2): teases, nulls, decimal strings, walls. */
import { z } from 'zod';
import {
  EnergyPrices,
  MarketBrief,
  MarketBriefAll,
  MarketBriefDiff,
  SiteScoreQuery,
  TransactionList,
  type QueueResultT,
  type SiteScoreT,
} from '@dchub/core';
import { PREVIEW_IGNORED } from '../../domain/queue.js';
import { callerId } from '../../policy/limits.js';
import { atLeast, type Tier } from '../../policy/tiers.js';
import type { Allowances, Body, Ctx, QueuePresenter, Shown, SitePresenter } from '../types.js';
import { CLAIM, keyedWall, PRICING, teaseMarkers, withoutSpecMarkers } from './upgrade.js';

const PAID = (tier: Tier) => atLeast(tier, 'developer');
const NO_STORE = {
  'Cache-Control': 'private, no-store, max-age=0',
  'Surrogate-Control': 'no-store',
  Pragma: 'no-cache',
};

/** §2.21: the tease goes to every caller below Developer; `_preview_params_not_applied` names what the caller sent. */
export const realQueue: QueuePresenter = {
  previewFor: (tier) => !PAID(tier),
  present: (body: QueueResultT, preview, sent) => {
    if (!preview) return body;
    const notApplied = PREVIEW_IGNORED.filter((k) => sent.includes(k));
    const { _preview_params_not_applied: _n, ...rest } = withoutSpecMarkers(body);
    return {
      ...rest,
      ...teaseMarkers(
        ['capacity_mw', 'estimated_ttp_months', 'fiber_km', 'site_evaluation_handoff', 'total_queued_mw'],
        body.count_total_matching,
        notApplied,
      ),
    };
  },
  fullHeaders: () => NO_STORE,
};

/** Keyless callers get this many full site scores a day, then 402 (notes §4 `full_answers_per_tool_per_day`). */
export const KEYLESS_FULL_SITE_SCORES = 2;

/** §2.15: a zero coordinate is refused as missing; the document says so (JSON Schema's `not: {const: 0}`). */
const nonZero = <T extends z.ZodType>(coordinate: T) => coordinate.meta({ not: { const: 0 } });

/** §2.15: reads `lon` and `capacity` only; a zero coordinate is "missing"; Pro opens the scores. */
export const realSite: SitePresenter = {
  query: z
    .object({
      lat: nonZero(SiteScoreQuery.shape.lat),
      lon: nonZero(SiteScoreQuery.shape.lon),
      state: SiteScoreQuery.shape.state,
      capacity: SiteScoreQuery.shape.capacity_mw,
    })
    .transform(({ capacity, ...q }) => ({ ...q, capacity_mw: capacity })),
  refuse: (c: Ctx, ctx: Allowances, tier, q) => {
    if (q.lat === 0 || q.lon === 0) return { status: 400, body: { success: false, error: 'lat and lon are required' } };
    if (tier !== 'anonymous' || !ctx.enforceLimits) return undefined;
    if (ctx.counters.take(ctx.clock.nowMs(), `site-full:${callerId(c, tier)}`, KEYLESS_FULL_SITE_SCORES) >= 0)
      return undefined;
    return {
      status: 402,
      body: {
        status: 'paid_preview',
        preview: true,
        human_message: `Site scoring is a Pro feature. You used today's ${KEYLESS_FULL_SITE_SCORES} free site scores; claim a key and upgrade to continue.`,
        upgrade_url: PRICING,
        agent_action: {
          type: 'claim_key',
          method: 'POST',
          url: CLAIM,
          then: 'Send the key as X-API-Key; the Pro plan opens site scoring.',
        },
      },
    };
  },
  present: (score: SiteScoreT, tier) => {
    if (tier === 'anonymous' || atLeast(tier, 'pro')) return score;
    // A key below Pro: the verdict band and the counts, every score null.
    const scores = Object.fromEntries(Object.keys(score.scores ?? {}).map((k) => [k, null]));
    return {
      ...score,
      overall_score: null,
      scores,
      fiber: score.fiber ? { basis: score.fiber.basis, connectivity_score: null } : undefined,
      verdict_band: score.interpretation,
      ...teaseMarkers(['fiber', 'overall_score', 'scores'], null),
      // Site scoring opens from Pro (§2.15), not from the Developer plan the queue's tease offers.
      required_plan: 'pro',
      upgrade_options: [{ plan: 'pro', opens: 'rest', label: 'Pro $99/mo opens site scoring', url: `${PRICING}#pro` }],
    };
  },
};

const DCPI_NUMBERS = ['composite_score', 'excess_power_score', 'constraint_score', 'time_to_power_months'] as const;

/** §2.6 (Sep-2026 /openapi.json): the verdict is free, the four numbers are null below Developer. */
export function realDcpiMarket(body: Body, tier: Tier): Body {
  if (PAID(tier)) return body;
  const out: Body = { ...body };
  for (const k of DCPI_NUMBERS) out[k] = null;
  return { ...out, ...teaseMarkers([...DCPI_NUMBERS], null) };
}

/** §2.8: keyless and free callers get the banded tease, with the §1.3 markers instead of the spec's. */
export function realAiCapacity(body: Body, gated: boolean): Body {
  if (!gated) return body;
  const markets = (body.markets as Body[]).map(
    ({ score_band: _s, pipeline_mw_band: _p, pipeline_total_mw: _t, ...row }) => row,
  );
  const { _locked_fields: locked, _total_available: total, upgrade_url: _u, ...rest } = withoutSpecMarkers(body);
  return {
    ...rest,
    markets,
    ...teaseMarkers(
      (locked as string[]).filter((k) => k !== 'pipeline_total_mw'),
      total as number,
    ),
  };
}

const BASIC_DEAL_FIELDS = ['buyer', 'seller', 'market', 'date', 'type', 'region'] as const;

/**
 * §2.13: keyless calls get exactly the 3 newest deals with basic fields (`limit` and `deal_type`
 * ignored); keyed calls need Pro and one of year, buyer, seller.
 */
export function realTransactions(
  _c: Ctx,
  tier: Tier,
  q: { year?: number; buyer?: string; seller?: string },
  compute: (filtered: boolean, limit?: number) => Body,
): Shown {
  if (tier === 'anonymous') {
    const all = compute(false, 3);
    const rows = (all.transactions as Body[]).map((d) =>
      Object.fromEntries(BASIC_DEAL_FIELDS.map((k) => [k, d[k] ?? null])),
    );
    const total = all.total_count as number;
    return {
      status: 200,
      body: {
        success: true,
        transactions: rows,
        data: rows,
        count: rows.length,
        total_matching: total,
        total_tracked: all.total_tracked,
        full_results_available: true,
        data_source: 'live',
        tier: 'free',
        upgrade_url: PRICING,
        note: `Free tier: showing ${rows.length} of ${total} transactions with basic fields. Send X-API-Key on the Pro plan for values, MW and filters.`,
      },
    };
  }
  if (!atLeast(tier, 'pro')) return { status: 403, body: keyedWall(tier, 'pro') };
  if (q.year === undefined && !q.buyer && !q.seller) {
    return {
      status: 400,
      body: {
        error: 'search_filter_required',
        message: 'At least one filter is required: year, buyer, seller',
        hint: 'Try adding a country, city, provider, or search query.',
        docs: 'https://dchub.cloud/api/docs',
      },
    };
  }
  return { status: 200, body: compute(true) };
}

const PRICE_FIELDS = [
  'industrial_price_cents_kwh',
  'commercial_price_cents_kwh',
  'residential_price_cents_kwh',
  'all_sectors_price_cents_kwh',
] as const;

/** §2.17: prices come from a NUMERIC column and arrive as decimal text ("7.23"). */
export function realEnergyPrices(body: Body): Body {
  const out: Body = { ...body };
  for (const k of PRICE_FIELDS) if (typeof out[k] === 'number') out[k] = out[k].toFixed(2);
  return out;
}

/** A brief that failed to build (§2.29), as it stands in the list. */
const FailedBrief = z.looseObject({ ok: z.literal(false), slug: z.string(), error: z.string() });
const briefsOrFailures = z.array(z.union([MarketBrief, FailedBrief]));

/** §2.13: the keyless tease of /api/v1/transactions (3 newest deals, basic fields). */
const TransactionTease = z.looseObject({
  success: z.literal(true),
  transactions: z.array(z.looseObject(Object.fromEntries(BASIC_DEAL_FIELDS.map((k) => [k, z.string().nullable()])))),
  count: z.number(),
  total_matching: z.number(),
  tier: z.literal('free'),
  note: z.string(),
});

/**
 * §2.13, §2.17 and §2.29 in the document: the deals tease, decimal-string prices, briefs that failed to build among the
 * others.
 */
export const realSchemas = {
  transactions: z.union([TransactionList, TransactionTease]),
  energyPrices: EnergyPrices.extend(Object.fromEntries(PRICE_FIELDS.map((k) => [k, z.string().regex(/^\d+\.\d{2}$/)]))),
  briefAll: MarketBriefAll.extend({ briefs: briefsOrFailures }),
  briefDiff: MarketBriefDiff.extend({ briefs: briefsOrFailures }),
};
