import type { Context, Hono } from 'hono';
import { BRIEF_CSV_COLUMNS, optionalNumber } from '@dchub/core';
import { z } from 'zod';
import { DAY_MS, dayIso } from '../clock.js';
import { METROS } from '../data/metros.js';
import { RECOMPUTE_HOUR_UTC, scoringDay, type DcpiScore } from '../data/markets.js';
import { parseQuery } from '../http.js';
import { unit } from '../rng.js';
import type { SandboxContext, Tier } from '../context.js';

/** The 15 seed markets; free and anonymous callers see the first 5 (spec §5.2). */
export const SEED_MARKETS = [
  'northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago', 'silicon-valley', 'new-york', 'portland',
  'hillsboro', 'reno', 'columbus', 'salt-lake-city', 'charlotte', 'denver', 'madison',
] as const;

const isPro = (tier: Tier) => tier === 'pro' || tier === 'enterprise';

/** Markets a tier may see, in serving order. */
export function entitledSlugs(tier: Tier): string[] {
  if (tier === 'enterprise') return METROS.map((m) => m.slug);
  return SEED_MARKETS.slice(0, isPro(tier) ? 15 : 5);
}

const BriefPage = (tier: Tier) =>
  z.object({
    limit: optionalNumber({ int: true, min: 1, max: isPro(tier) ? 500 : 50 }).transform((n) => n ?? 50),
    offset: optionalNumber({ int: true, min: 0 }).transform((n) => n ?? 0),
  });

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
    const live = day * DAY_MS + RECOMPUTE_HOUR_UTC * 3_600_000 + Math.floor(unit(ctx.seed, 'live', slug, day) * 4 * 3_600_000);
    return { score, live_as_of: new Date(Math.min(live, nowMs)).toISOString().replace(/\.\d{3}Z$/, '+00:00') };
  });
}

const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

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

function allCsv(c: Context, ctx: SandboxContext, tier: Tier) {
  const page = parseQuery(c, BriefPage(tier));
  if (!page.ok) return page.response;
  const now = ctx.clock.nowMs();
  const slugs = entitledSlugs(tier).slice(page.value.offset, page.value.offset + page.value.limit);
  const lines = [BRIEF_CSV_COLUMNS.join(','), ...briefRows(ctx, slugs, now).map((r) => briefCsvLine(ctx, r))];
  c.header('Content-Type', 'text/csv; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="dchub-market-briefs-${dayIso(Math.floor(now / DAY_MS))}.csv"`);
  c.header('X-Total-Available', String(entitledSlugs(tier).length));
  return c.body(lines.join('\r\n') + '\r\n');
}

export function registerBriefs(app: Hono<{ Variables: { tier: Tier } }>, ctx: SandboxContext): void {
  app.get('/api/v1/market-brief/all.csv', (c) => allCsv(c, ctx, c.get('tier')));
}
