import { BRIEF_CSV_COLUMNS, briefMarketsInScope, isBriefPro, type MarketBriefT } from '@dchub/core';
import { DAY_MS } from '../clock.js';
import type { SandboxContext } from '../context.js';
import {
  dcpiExtras,
  etaDate,
  facilitiesByMarket,
  marketDeals,
  marketRisk,
  METRO_BY_SLUG,
  outlookNarrative,
  type ResolvedMarket,
} from '../data/market-extras.js';
import type { Facility } from '../data/infrastructure.js';
import { RECOMPUTE_HOUR_UTC, scoringDay, type DcpiScore } from '../data/markets.js';
import { METROS } from '../data/metros.js';
import { csvField } from '../http.js';
import { attribution } from '../labels.js';
import type { Tier } from '../policy/tiers.js';
import { round, unit } from '../rng.js';

/** The 15 seed markets; free and anonymous callers see the first 5 (spec §5.2). */
export const SEED_MARKETS = [
  'northern-virginia',
  'dallas',
  'phoenix',
  'atlanta',
  'chicago',
  'silicon-valley',
  'new-york',
  'portland',
  'hillsboro',
  'reno',
  'columbus',
  'salt-lake-city',
  'charlotte',
  'denver',
  'madison',
] as const;

/** Complete brief sections and 500-brief pages from Pro (core's plans table; developer is not Pro here). */
export const isPro = (tier: Tier) => isBriefPro(tier);

/** Markets a tier may see, in serving order: the first seeds, or every market (plans: markets in scope). */
export function entitledSlugs(tier: Tier): string[] {
  const n = briefMarketsInScope(tier);
  return n >= METROS.length ? METROS.map((m) => m.slug) : SEED_MARKETS.slice(0, n);
}

export interface BriefRow {
  score: DcpiScore;
  live_as_of: string;
}

/** The rows of the CSV for one scoring day. */
export function briefRows(ctx: SandboxContext, slugs: readonly string[], nowMs: number): BriefRow[] {
  const day = scoringDay(nowMs);
  const bySlug = new Map(ctx.data.dcpi(day).map((s) => [s.market_slug, s]));
  return slugs.map((slug) => {
    const score = bySlug.get(slug)!;
    // Youngest source behind the brief: a feed refresh within the few hours after the recompute.
    const live =
      day * DAY_MS + RECOMPUTE_HOUR_UTC * 3_600_000 + Math.floor(unit(ctx.seed, 'live', slug, day) * 4 * 3_600_000);
    return { score, live_as_of: new Date(Math.min(live, nowMs)).toISOString().replace(/\.\d{3}Z$/, '+00:00') };
  });
}

export function briefCsvLine(ctx: SandboxContext, r: BriefRow): string {
  const s = r.score;
  const st = ctx.data.stats.get(s.market_slug)!;
  const values: Record<(typeof BRIEF_CSV_COLUMNS)[number], unknown> = {
    market_slug: s.market_slug,
    market_name: s.market_name,
    verdict: s.verdict,
    composite_score: s.composite_score,
    excess_power: s.excess_power_score,
    constraint_score: s.constraint_score,
    queue_wait_months: s.queue_wait_months,
    iso: s.iso,
    state: s.state,
    operational_mw: st.operational_mw,
    pipeline_mw: st.pipeline_mw,
    facility_count: st.facility_count,
    vacancy_pct: st.vacancy_pct,
    lease_rate: st.lease_rate,
    top_operator: st.top_operator?.name ?? '',
    outlook_word_count: st.outlook_word_count,
    live_as_of: r.live_as_of,
    computed_at: s.computed_at,
  };
  return BRIEF_CSV_COLUMNS.map((c) => csvField(values[c])).join(',');
}

/** Briefs above this many in one page are streamed (chunked). */
export const BRIEF_STREAM_THRESHOLD = 50;
export const PAYWALL = {
  required_tier: 'PRO',
  checkout_url: '/pricing?utm_source=market_brief',
  blurb: 'Power & Grid, Pipeline, Operators, M&A, Comps and Risk for every market — Pro plan ($499/mo), all markets.',
};

/** The sections every tier sees: hero, freshness, KPIs and the outlook; the Pro sections empty. */
function freeSections(ctx: SandboxContext, row: BriefRow, nowMs: number): MarketBriefT {
  const s = row.score;
  const st = ctx.data.stats.get(s.market_slug)!;
  return {
    slug: s.market_slug,
    hero: {
      slug: s.market_slug,
      name: s.market_name,
      state: s.state,
      iso: s.iso,
      verdict: s.verdict,
      composite_score: s.composite_score,
      excess_power: s.excess_power_score,
      constraint_score: s.constraint_score,
      queue_wait_months: s.queue_wait_months,
      time_to_power_mo: s.time_to_power_months,
      computed_at: s.computed_at,
    },
    live_as_of: { iso: row.live_as_of, age_hours: round((nowMs - Date.parse(row.live_as_of)) / 3_600_000, 2) },
    kpis: {
      operational_mw: st.operational_mw,
      pipeline_mw: st.pipeline_mw,
      facility_count: st.facility_count,
      vacancy_pct: st.vacancy_pct,
      lease_rate: st.lease_rate,
      queue_months: s.queue_wait_months,
      top_operator: st.top_operator,
    },
    outlook: {
      narrative_md: outlookNarrative(s, st, st.outlook_word_count),
      word_count: st.outlook_word_count,
      generated_at: s.computed_at,
      verdict: s.verdict,
      rationale: 'Auto-template (deep-dive not yet generated).',
    },
    power_grid: null,
    pipeline: [],
    operators: [],
    ma: [],
    comps: { powered_shell: [], land: [] },
    risk: null,
  };
}

/** The market's five largest operators by facility count, then MW, then name. */
function topOperators(fs: readonly Facility[]) {
  const ops = new Map<string, { operator: string; facility_count: number; total_mw: number }>();
  for (const f of fs) {
    const o = ops.get(f.operator) ?? { operator: f.operator, facility_count: 0, total_mw: 0 };
    o.facility_count++;
    o.total_mw = round(o.total_mw + f.power_mw, 2);
    ops.set(f.operator, o);
  }
  return [...ops.values()]
    .sort(
      (a, b) => b.facility_count - a.facility_count || b.total_mw - a.total_mw || a.operator.localeCompare(b.operator),
    )
    .slice(0, 5);
}

/** The Pro sections: power and grid, the 12 largest projects under way, operators, M&A, comps and risk. */
function proSections(ctx: SandboxContext, s: DcpiScore, day: number) {
  const st = ctx.data.stats.get(s.market_slug)!;
  const x = dcpiExtras(ctx.seed, s);
  const fs = facilitiesByMarket(ctx.data).get(s.market_slug) ?? [];
  const deals = marketDeals(ctx.seed, s.market_slug, day, st.facility_count);
  return {
    power_grid: {
      iso: s.iso,
      queue_capacity_mw: x.queue_capacity_mw,
      queue_wait_months: s.queue_wait_months,
      reserve_margin_pct: s.reserve_margin_pct,
      gen_additions_mw: s.gen_additions_12mo_mw,
      interconnection_pending_mw: x.interconnection_pending_mw,
    },
    pipeline: fs
      .filter((f) => f.status !== 'operational')
      .sort((a, b) => b.power_mw - a.power_mw || a.id - b.id)
      .slice(0, 12)
      .map((f) => ({
        operator: f.operator,
        facility: f.name,
        power_mw: f.power_mw,
        status: f.status,
        eta: etaDate(ctx.seed, f, day),
      })),
    operators: topOperators(fs),
    ma: deals.ma,
    comps: { powered_shell: deals.powered_shell, land: deals.land },
    risk: marketRisk(ctx.seed, METRO_BY_SLUG.get(s.market_slug)!),
  };
}

/** One market brief (spec §2.6; notes §2.29). Same numbers as the CSV line of the same market and day. */
export function buildBrief(ctx: SandboxContext, row: BriefRow, nowMs: number, pro: boolean): MarketBriefT {
  const brief = freeSections(ctx, row, nowMs);
  if (!pro) return { ...brief, paywall: PAYWALL };
  return { ...brief, ...proSections(ctx, row.score, scoringDay(nowMs)) };
}

/** `since` of /diff: ISO 8601 with or without a zone (UTC assumed), or a date. */
export function parseSince(text: string): number | null {
  const t = text.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m) return null;
  const zone = m[3]
    ? m[3].toUpperCase() === 'Z'
      ? 'Z'
      : m[3].includes(':')
        ? m[3]
        : `${m[3].slice(0, 3)}:${m[3].slice(3)}`
    : 'Z';
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${zone}`);
  return Number.isNaN(ms) ? null : ms;
}

/** The slugs whose DCPI `computed_at` is later than `sinceMs` (all of them when null). */
export function changedSince(
  ctx: SandboxContext,
  slugs: readonly string[],
  sinceMs: number | null,
  nowMs: number,
): string[] {
  if (sinceMs === null) return [...slugs];
  const bySlug = new Map(ctx.data.dcpi(scoringDay(nowMs)).map((s) => [s.market_slug, s]));
  return slugs.filter((slug) => Date.parse(bySlug.get(slug)!.computed_at) > sinceMs);
}

const isoNow = (ms: number) => new Date(ms).toISOString();

/** A page of briefs: the slugs it holds and the answer's head (the keys before `briefs`, in order). */
export interface BriefPage {
  slugs: string[];
  head: Record<string, unknown>;
}

/** The page of /all: the markets of the tier from `offset`. */
export function briefsAllPage(tier: Tier, q: { limit: number; offset: number }, nowMs: number): BriefPage {
  const entitled = entitledSlugs(tier);
  const slugs = entitled.slice(q.offset, q.offset + q.limit);
  const head = {
    as_of: isoNow(nowMs),
    tier: tier.toUpperCase(),
    count: slugs.length,
    total_available: entitled.length,
    limit: q.limit,
    offset: q.offset,
  };
  return { slugs, head };
}

/** The page of /diff: the tier's markets whose DCPI changed after `sinceMs` (all when null), from `offset`. */
export function briefsDiffPage(
  ctx: SandboxContext,
  tier: Tier,
  q: { limit: number; offset: number },
  sinceMs: number | null,
  nowMs: number,
): BriefPage {
  const entitled = entitledSlugs(tier);
  const changed = changedSince(ctx, entitled, sinceMs, nowMs);
  const slugs = changed.slice(q.offset, q.offset + q.limit);
  const head = {
    as_of: isoNow(nowMs),
    since: sinceMs === null ? null : isoNow(sinceMs),
    tier: tier.toUpperCase(),
    count: slugs.length,
    total_available: entitled.length,
    changed_total: changed.length,
    limit: q.limit,
    offset: q.offset,
  };
  return { slugs, head };
}

/** A brief of a page, or the profile's failure in its place when it failed to build (notes §2.29). */
export function briefOrFailure(ctx: SandboxContext, r: BriefRow, nowMs: number, pro: boolean) {
  return ctx.presenters.briefFails(ctx.seed, r.score.market_slug, scoringDay(nowMs))
    ? ctx.presenters.failedBrief(r.score.market_slug)
    : buildBrief(ctx, r, nowMs, pro);
}

/** A CSV line of a page, or the profile's failed line in its place. */
export function briefCsvLineOrFailure(ctx: SandboxContext, r: BriefRow, day: number): string {
  return ctx.presenters.briefFails(ctx.seed, r.score.market_slug, day)
    ? ctx.presenters.failedCsvLine(r.score.market_slug, BRIEF_CSV_COLUMNS.length)
    : briefCsvLine(ctx, r);
}

/** One market's brief for a tier (GET /api/v1/market-brief/{slug}), with the slug asked and any redirect. */
export function briefDetailAnswer(ctx: SandboxContext, res: ResolvedMarket, tier: Tier, nowMs: number) {
  const [row] = briefRows(ctx, [res.metro.slug], nowMs);
  const { slug, ...brief } = buildBrief(ctx, row, nowMs, isPro(tier));
  return {
    ok: true,
    slug,
    requested: res.requested,
    redirect_to: res.requested !== res.metro.slug ? res.metro.slug : null,
    tier: tier.toUpperCase(),
    is_pro: isPro(tier),
    ...brief,
    ...attribution(),
  };
}
