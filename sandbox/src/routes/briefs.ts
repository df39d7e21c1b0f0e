import { BRIEF_CSV_COLUMNS, ErrorBody, optionalNumber } from '@dchub/core';
import { z } from 'zod';
import { DAY_MS, dayIso } from '../clock.js';
import { METROS } from '../data/metros.js';
import { RECOMPUTE_HOUR_UTC, scoringDay, type DcpiScore } from '../data/markets.js';
import { badRequest } from '../http.js';
import type { RouteRegistry } from '../registry.js';
import { unit } from '../rng.js';
import type { SandboxContext, Tier } from '../context.js';

/** The 15 seed markets; free and anonymous callers see the first 5 (spec §5.2). */
export const SEED_MARKETS = [
  'northern-virginia', 'dallas', 'phoenix', 'atlanta', 'chicago', 'silicon-valley', 'new-york', 'portland',
  'hillsboro', 'reno', 'columbus', 'salt-lake-city', 'charlotte', 'denver', 'madison',
] as const;

export const isPro = (tier: Tier) => tier === 'pro' || tier === 'enterprise';

/** Markets a tier may see, in serving order. */
export function entitledSlugs(tier: Tier): string[] {
  if (tier === 'enterprise') return METROS.map((m) => m.slug);
  return SEED_MARKETS.slice(0, isPro(tier) ? 15 : 5);
}

/** Paging of the bulk brief endpoints; the tier's maximum (50, or 500 from Pro) is checked per call. */
export const BriefPageQuery = z.object({
  limit: optionalNumber({ int: true, min: 1, max: 500, description: 'Page size (default 50; at most 50 below Pro, 500 from Pro)' }).transform((n) => n ?? 50),
  offset: optionalNumber({ int: true, min: 0, description: 'Briefs to skip' }).transform((n) => n ?? 0),
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

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    method: 'get',
    path: '/api/v1/market-brief/all.csv',
    summary: 'Market briefs of the caller\'s tier as CSV (spec §2.6 columns, in order)',
    tags: ['Briefs'],
    query: BriefPageQuery,
    responses: {
      200: { description: 'CSV attachment `dchub-market-briefs-YYYY-MM-DD.csv`', contentType: 'text/csv' },
      400: { description: 'Bad limit or offset', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const tier = c.get('tier');
      const max = isPro(tier) ? 500 : 50;
      if (query.limit > max) return badRequest(c, 'limit', `must be at most ${max} for the ${tier} tier`);
      const now = ctx.clock.nowMs();
      const slugs = entitledSlugs(tier).slice(query.offset, query.offset + query.limit);
      const lines = [BRIEF_CSV_COLUMNS.join(','), ...briefRows(ctx, slugs, now).map((row) => briefCsvLine(ctx, row))];
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="dchub-market-briefs-${dayIso(Math.floor(now / DAY_MS))}.csv"`);
      c.header('X-Total-Available', String(entitledSlugs(tier).length));
      return c.body(lines.join('\r\n') + '\r\n');
    },
  });
}
