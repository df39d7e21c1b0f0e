import {
  BRIEF_CSV_COLUMNS,
  ErrorBody,
  MarketBriefCapExceeded,
  MarketBriefNotFound,
  ENDPOINTS,
  briefPageMax,
} from '@dchub/core';
import type { Context } from 'hono';
import { DAY_MS, dayIso } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { canonSlug, resolveMarket } from '../data/market-extras.js';
import { scoringDay } from '../data/markets.js';
import {
  BRIEF_STREAM_THRESHOLD,
  briefCsvLineOrFailure,
  briefDetailAnswer,
  briefOrFailure,
  briefRows,
  briefsAllPage,
  briefsDiffPage,
  entitledSlugs,
  isPro,
  parseSince,
  SEED_MARKETS,
  type BriefPage,
} from '../domain/briefs.js';
import { badRequest, type SandboxEnv } from '../http.js';
import { callerId } from '../policy/limits.js';
import { BRIEF_BULK_CAP } from '../policy/tiers.js';
import type { RouteRegistry } from '../registry.js';

const BRIEF_CACHE = 'public, max-age=21600, s-maxage=21600';

/** Daily cap of the bulk endpoints per caller and tool (spec §5.2): 429 `daily_cap_exceeded` when spent. */
function takeBulkCap(ctx: SandboxContext, c: Context<SandboxEnv>, tool: string): Response | undefined {
  const tier = c.get('tier');
  const cap = BRIEF_BULK_CAP[tier];
  if (cap === Infinity || !ctx.enforceLimits) return undefined;
  const now = ctx.clock.nowMs();
  const bucket = `brief:${tool}:${callerId(c, tier)}`;
  if (ctx.counters.take(now, bucket, cap) >= 0) return undefined;
  c.header('Retry-After', '3600');
  c.header('X-RateLimit-Limit', String(cap));
  c.header('X-RateLimit-Remaining', '0');
  return c.json(
    {
      error: 'daily_cap_exceeded',
      tool,
      tier,
      limit: `${cap}/day`,
      current_count: ctx.counters.used(now, bucket),
      upgrade_url: '/pricing?utm_source=market_brief_bulk',
      message: `The ${tier} tier may call ${tool} ${cap} times a day. Pro and Enterprise have no daily cap.`,
    },
    429,
  );
}

/** The tier's page-size maximum: 50 below Pro, 500 from Pro. */
const checkLimit = (c: Context<SandboxEnv>, limit: number): Response | undefined => {
  const tier = c.get('tier');
  const max = briefPageMax(tier);
  return limit > max ? badRequest(c, 'limit', `must be at most ${max} for the ${tier} tier`) : undefined;
};

/** A bulk request's refusal, if any: a page above the tier's maximum, then the tool's spent daily cap. */
const refuseBulk = (ctx: SandboxContext, c: Context<SandboxEnv>, limit: number, tool: string) =>
  checkLimit(c, limit) ?? takeBulkCap(ctx, c, tool);

const encoder = new TextEncoder();

/** A body produced piece by piece (chunked transfer), `batch` pieces at a time. */
function chunkedBody(
  prefix: string,
  parts: number,
  make: (i: number) => string,
  suffix: string,
  batch = 10,
): ReadableStream<Uint8Array> {
  let i = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(prefix));
        return;
      }
      if (i >= parts) {
        controller.enqueue(encoder.encode(suffix));
        controller.close();
        return;
      }
      let out = '';
      for (const end = Math.min(parts, i + batch); i < end; i++) out += make(i);
      controller.enqueue(encoder.encode(out));
    },
  });
}

/** The JSON answer of /all and /diff: the page's head keys in order, then `briefs`, streamed above 50 briefs. */
function briefsAnswer(c: Context<SandboxEnv>, ctx: SandboxContext, page: BriefPage, nowMs: number, mode: string) {
  const tier = c.get('tier');
  const pro = isPro(tier);
  const rows = briefRows(ctx, page.slugs, nowMs);
  const streamed = rows.length > BRIEF_STREAM_THRESHOLD;
  c.header('Cache-Control', BRIEF_CACHE);
  c.header('X-Market-Brief-Tier', tier.toUpperCase());
  c.header('X-Market-Brief-Mode', streamed ? `stream${mode}` : `batch${mode}`);
  c.header('X-Total-Available', String(page.head.total_available));
  const top = { ...page.head, streamed };
  if (!streamed) return c.json({ ...top, briefs: rows.map((r) => briefOrFailure(ctx, r, nowMs, pro)) });
  const prefix = JSON.stringify(top).slice(0, -1) + ',"briefs":[';
  const brief = (i: number) => (i ? ',' : '') + JSON.stringify(briefOrFailure(ctx, rows[i], nowMs, pro));
  c.header('Content-Type', 'application/json; charset=utf-8');
  return c.body(chunkedBody(prefix, rows.length, brief, ']}'));
}

/** The CSV of a tier's page (spec §2.6 columns), batch or streamed above 50 rows. */
function briefsCsv(c: Context<SandboxEnv>, ctx: SandboxContext, q: { limit: number; offset: number }) {
  const tier = c.get('tier');
  const now = ctx.clock.nowMs();
  const rows = briefRows(ctx, entitledSlugs(tier).slice(q.offset, q.offset + q.limit), now);
  const day = scoringDay(now);
  const line = (i: number) => briefCsvLineOrFailure(ctx, rows[i], day) + '\r\n';
  c.header('Content-Type', 'text/csv; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="dchub-market-briefs-${dayIso(Math.floor(now / DAY_MS))}.csv"`);
  c.header('X-Total-Available', String(entitledSlugs(tier).length));
  const header = BRIEF_CSV_COLUMNS.join(',') + '\r\n';
  if (rows.length > BRIEF_STREAM_THRESHOLD) {
    c.header('X-Market-Brief-Mode', 'stream');
    return c.body(chunkedBody(header, rows.length, line, ''));
  }
  c.header('X-Market-Brief-Mode', 'batch');
  return c.body(header + rows.map((_r, i) => line(i)).join(''));
}

const capResponse = {
  description: 'Daily cap of the bulk brief endpoints spent (Retry-After: 3600)',
  schema: MarketBriefCapExceeded,
};

function registerCsv(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.briefsCsv,
    summary: "Market briefs of the caller's tier as CSV (spec §2.6 columns, in order; chunked above 50 rows)",
    tags: ['Briefs'],
    responses: {
      200: { description: 'CSV attachment `dchub-market-briefs-YYYY-MM-DD.csv`', contentType: 'text/csv' },
      400: { description: 'Bad limit or offset', schema: ErrorBody },
      429: capResponse,
    },
    handler: (c, { query }) => refuseBulk(ctx, c, query.limit, 'market_brief_all_csv') ?? briefsCsv(c, ctx, query),
  });
}

function registerAll(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.briefsAll,
    summary: "Market briefs of the caller's tier (anonymous/free 5, Pro 15, Enterprise all); streamed above 50",
    tags: ['Briefs'],
    responses: {
      200: {
        description: 'Briefs (chunked when the page holds more than 50)',
        schema: ctx.presenters.schemas.briefAll,
      },
      400: { description: 'limit above the tier maximum, or bad offset', schema: ErrorBody },
      429: capResponse,
    },
    handler: (c, { query }) => {
      const refused = refuseBulk(ctx, c, query.limit, 'market_brief_all');
      if (refused) return refused;
      const now = ctx.clock.nowMs();
      return briefsAnswer(c, ctx, briefsAllPage(c.get('tier'), query, now), now, '');
    },
  });
}

function registerDiff(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.briefsDiff,
    summary: "Briefs of the caller's tier whose DCPI computed_at is later than `since`",
    tags: ['Briefs'],
    responses: {
      200: { description: 'Changed briefs with `since` and `changed_total`', schema: ctx.presenters.schemas.briefDiff },
      400: { description: '`since` not an ISO 8601 timestamp, or bad limit/offset', schema: ErrorBody },
      429: capResponse,
    },
    handler: (c, { query }) => {
      const sinceMs = query.since === undefined ? null : parseSince(query.since);
      if (query.since !== undefined && sinceMs === null) {
        const example = 'an ISO 8601 timestamp such as 2026-11-20T06:00:00Z';
        return badRequest(c, 'since', `must be ${example}, got "${query.since}"`);
      }
      const refused = refuseBulk(ctx, c, query.limit, 'market_brief_diff');
      if (refused) return refused;
      const now = ctx.clock.nowMs();
      return briefsAnswer(c, ctx, briefsDiffPage(ctx, c.get('tier'), query, sinceMs, now), now, '-diff');
    },
  });
}

function registerBrief(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.brief,
    summary: 'One market brief (Pro sections complete from Pro; teasers and a paywall below)',
    tags: ['Briefs'],
    responses: {
      200: { description: 'Brief' },
      404: { description: '`market_not_found` with `sample_markets`', schema: MarketBriefNotFound },
    },
    handler: (c) => {
      const raw = c.req.param('slug') ?? '';
      const res = resolveMarket(raw);
      c.header('Cache-Control', BRIEF_CACHE);
      if (!res) {
        const sample_markets = SEED_MARKETS.slice(0, 12);
        return c.json({ ok: false, error: 'market_not_found', slug: canonSlug(raw), sample_markets }, 404);
      }
      return c.json(briefDetailAnswer(ctx, res, c.get('tier'), ctx.clock.nowMs()));
    },
  });
}

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  registerCsv(r, ctx);
  registerAll(r, ctx);
  registerDiff(r, ctx);
  // Declared after /all, /all.csv and /diff so those literal paths win.
  registerBrief(r, ctx);
}
