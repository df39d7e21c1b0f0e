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
  briefCsvLine,
  briefRows,
  buildBrief,
  changedSince,
  entitledSlugs,
  isPro,
  parseSince,
  SEED_MARKETS,
  type BriefRow,
} from '../domain/briefs.js';
import { badRequest, type SandboxEnv } from '../http.js';
import { attribution } from '../labels.js';
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

/** The JSON answer of /all and /diff: `head` keys in order, then `briefs`, streamed above 50 briefs. */
function briefsAnswer(
  c: Context<SandboxEnv>,
  ctx: SandboxContext,
  head: Record<string, unknown>,
  slugs: string[],
  nowMs: number,
  mode: string,
) {
  const tier = c.get('tier');
  const pro = isPro(tier);
  const rows = briefRows(ctx, slugs, nowMs);
  const streamed = rows.length > BRIEF_STREAM_THRESHOLD;
  c.header('Cache-Control', BRIEF_CACHE);
  c.header('X-Market-Brief-Tier', tier.toUpperCase());
  c.header('X-Market-Brief-Mode', streamed ? `stream${mode}` : `batch${mode}`);
  c.header('X-Total-Available', String(head.total_available));
  const top = { ...head, streamed };
  const brief = (r: BriefRow) =>
    ctx.presenters.briefFails(ctx.seed, r.score.market_slug, scoringDay(nowMs))
      ? ctx.presenters.failedBrief(r.score.market_slug)
      : buildBrief(ctx, r, nowMs, pro);
  if (!streamed) return c.json({ ...top, briefs: rows.map(brief) });
  const prefix = JSON.stringify(top).slice(0, -1) + ',"briefs":[';
  c.header('Content-Type', 'application/json; charset=utf-8');
  return c.body(chunkedBody(prefix, rows.length, (i) => (i ? ',' : '') + JSON.stringify(brief(rows[i])), ']}'));
}

const isoNow = (ms: number) => new Date(ms).toISOString();

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  const capResponse = {
    description: 'Daily cap of the bulk brief endpoints spent (Retry-After: 3600)',
    schema: MarketBriefCapExceeded,
  };

  r.add({
    ...ENDPOINTS.briefsCsv,
    summary: "Market briefs of the caller's tier as CSV (spec §2.6 columns, in order; chunked above 50 rows)",
    tags: ['Briefs'],
    responses: {
      200: { description: 'CSV attachment `dchub-market-briefs-YYYY-MM-DD.csv`', contentType: 'text/csv' },
      400: { description: 'Bad limit or offset', schema: ErrorBody },
      429: capResponse,
    },
    handler: (c, { query }) => {
      const tier = c.get('tier');
      const bad = checkLimit(c, query.limit);
      if (bad) return bad;
      const capped = takeBulkCap(ctx, c, 'market_brief_all_csv');
      if (capped) return capped;
      const now = ctx.clock.nowMs();
      const slugs = entitledSlugs(tier).slice(query.offset, query.offset + query.limit);
      const rows = briefRows(ctx, slugs, now);
      const day = scoringDay(now);
      const line = (r: BriefRow) =>
        ctx.presenters.briefFails(ctx.seed, r.score.market_slug, day)
          ? ctx.presenters.failedCsvLine(r.score.market_slug, BRIEF_CSV_COLUMNS.length)
          : briefCsvLine(ctx, r);
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header(
        'Content-Disposition',
        `attachment; filename="dchub-market-briefs-${dayIso(Math.floor(now / DAY_MS))}.csv"`,
      );
      c.header('X-Total-Available', String(entitledSlugs(tier).length));
      const header = BRIEF_CSV_COLUMNS.join(',') + '\r\n';
      if (rows.length > BRIEF_STREAM_THRESHOLD) {
        c.header('X-Market-Brief-Mode', 'stream');
        return c.body(chunkedBody(header, rows.length, (i) => line(rows[i]) + '\r\n', ''));
      }
      c.header('X-Market-Brief-Mode', 'batch');
      return c.body(header + rows.map((row) => line(row) + '\r\n').join(''));
    },
  });

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
      const bad = checkLimit(c, query.limit);
      if (bad) return bad;
      const capped = takeBulkCap(ctx, c, 'market_brief_all');
      if (capped) return capped;
      const tier = c.get('tier');
      const now = ctx.clock.nowMs();
      const entitled = entitledSlugs(tier);
      const page = entitled.slice(query.offset, query.offset + query.limit);
      const head = {
        as_of: isoNow(now),
        tier: tier.toUpperCase(),
        count: page.length,
        total_available: entitled.length,
        limit: query.limit,
        offset: query.offset,
      };
      return briefsAnswer(c, ctx, head, page, now, '');
    },
  });

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
      let sinceMs: number | null = null;
      if (query.since !== undefined) {
        sinceMs = parseSince(query.since);
        if (sinceMs === null)
          return badRequest(
            c,
            'since',
            `must be an ISO 8601 timestamp such as 2026-11-20T06:00:00Z, got "${query.since}"`,
          );
      }
      const bad = checkLimit(c, query.limit);
      if (bad) return bad;
      const capped = takeBulkCap(ctx, c, 'market_brief_diff');
      if (capped) return capped;
      const tier = c.get('tier');
      const now = ctx.clock.nowMs();
      const entitled = entitledSlugs(tier);
      const changed = changedSince(ctx, entitled, sinceMs, now);
      const page = changed.slice(query.offset, query.offset + query.limit);
      const head = {
        as_of: isoNow(now),
        since: sinceMs === null ? null : isoNow(sinceMs),
        tier: tier.toUpperCase(),
        count: page.length,
        total_available: entitled.length,
        changed_total: changed.length,
        limit: query.limit,
        offset: query.offset,
      };
      return briefsAnswer(c, ctx, head, page, now, '-diff');
    },
  });

  // Declared after /all, /all.csv and /diff so those literal paths win.
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
        return c.json(
          { ok: false, error: 'market_not_found', slug: canonSlug(raw), sample_markets: SEED_MARKETS.slice(0, 12) },
          404,
        );
      }
      const tier = c.get('tier');
      const now = ctx.clock.nowMs();
      const [row] = briefRows(ctx, [res.metro.slug], now);
      const { slug, ...brief } = buildBrief(ctx, row, now, isPro(tier));
      return c.json({
        ok: true,
        slug,
        requested: res.requested,
        redirect_to: res.requested !== res.metro.slug ? res.metro.slug : null,
        tier: tier.toUpperCase(),
        is_pro: isPro(tier),
        ...brief,
        ...attribution(),
      });
    },
  });
}
