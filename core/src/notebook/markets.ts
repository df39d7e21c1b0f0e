import { DCPI_CITATION, briefToRow, fetchBriefsAll, fetchBriefsAllPages, fetchBriefsDiff } from '../briefs.js';
import { fetchMeta } from '../call.js';
import { ValidationError } from '../errors.js';
import {
  DCPI_SCORE_COLUMNS,
  dcpiLeaderboard,
  dcpiScore,
  dcpiScoreFields,
  dcpiScores as fetchDcpiScores,
  getMarket,
  listMarkets,
  MARKET_LIST_COLUMNS,
  marketBrief,
  marketBriefFields,
} from '../markets.js';
import type { PagesProgress } from '../paging.js';
import { BRIEF_CSV_COLUMNS, type MarketBriefT } from '../schemas/briefs.js';
import { readPath } from '../table.js';
import { citationOf, describeAnswer, recordAnswer, tableAnswer, type NotebookAnswer } from './answer.js';
import { latestTime, frameColumns } from './columns.js';
import { text, wholeNumber, type MethodContext } from './context.js';

export const LEADERBOARD_COLUMNS = [
  'rank', 'market_slug', 'market_name', 'iso', 'state', 'verdict', 'composite_score', 'excess_power_score', 'constraint_score',
  'time_to_power_months', 'computed_at',
]; // prettier-ignore

/** The slugs the reader left out because the service failed to build their brief (its warning lines say so). */
function failedBriefs(warnings: readonly string[]): string[] {
  return warnings
    .map((w) => /^(.+?): brief failed to build on the service\b/.exec(w)?.[1])
    .filter((s): s is string => s !== undefined);
}

const pagesLine = (what: string) => (p: PagesProgress) =>
  `${what}: page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} rows)`;

/** Brief rows as the CSV's columns; the markets whose brief failed to build named in a note and a warning. */
function briefsAnswer(
  briefs: readonly MarketBriefT[],
  data: object,
  path: string,
  extra: Record<string, unknown>,
): NotebookAnswer {
  const rows = briefs.map(briefToRow);
  const meta = fetchMeta(data);
  const failed = failedBriefs(meta?.warnings ?? []);
  const note = failed.length ? `${failed.join(', ')}: brief failed to build on the service` : null;
  const described = describeAnswer(meta, {
    path,
    citation: DCPI_CITATION,
    asOf: latestTime(rows.map((r) => r.computed_at)) ?? null,
    shown: rows.length,
    note,
    extra: { ...extra, failed },
  });
  if (note) described.warnings.push({ category: 'note', message: `DC Hub: ${note}` });
  return { shape: 'table', columns: frameColumns(rows, BRIEF_CSV_COLUMNS, { only: true }), ...described };
}

/** Market briefs of the caller's tier: every page, or one with `limit`/`offset`. */
export async function briefs(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const limit = wholeNumber(args, 'limit', 1, 500);
  const offset = wholeNumber(args, 'offset', 0);
  const all =
    limit !== undefined || offset !== undefined
      ? await fetchBriefsAll(ctx.client, { limit: limit ?? 50, offset: offset ?? 0 }, ctx.call)
      : await fetchBriefsAllPages(ctx.client, {
          ...ctx.call,
          onProgress: (p) => p.pagesTotal > 1 && ctx.progress(pagesLine('briefs')(p)),
        });
  return briefsAnswer(all.briefs, all, '/api/v1/market-brief/all', { tier: all.tier || null });
}

/** Every brief recomputed after `since`, all pages of /diff; never from the cache. */
export async function briefsDiff(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const since = text(args.since);
  if (since === undefined || since.trim() === '') throw new ValidationError('since', 'is required (an ISO 8601 time)');
  const d = await fetchBriefsDiff(ctx.client, since.trim(), {
    ...ctx.call,
    onProgress: (p) => p.pagesTotal > 1 && ctx.progress(pagesLine('changed briefs')(p)),
  });
  return briefsAnswer(d.briefs, d, '/api/v1/market-brief/diff', {
    tier: d.tier || null,
    changed_total: d.changed_total,
    since: since.trim(),
  });
}

/** `fields` as a list: a list of paths, or their comma-separated text; anything else is refused. */
function fieldList(v: unknown): string[] | undefined {
  if (v === null || v === undefined) return undefined;
  const items = Array.isArray(v) ? (v as unknown[]) : typeof v === 'string' ? v.split(',') : undefined;
  if (!items || !items.every((s) => typeof s === 'string'))
    throw new ValidationError('fields', 'must be a field path or a list of them');
  return items.map((s) => s.trim()).filter(Boolean);
}

/** Some fields of an item answered through the derive setting: the asked values only. */
function fieldsAnswer(body: object, fields: readonly string[], path: string): NotebookAnswer {
  const meta = fetchMeta(body);
  const values = Object.fromEntries(fields.map((f) => [f, readPath(body, f) ?? null]));
  const asOf = readPath(body, 'computed_at') ?? readPath(body, 'hero.computed_at');
  return recordAnswer(values, body, {
    path,
    citation: DCPI_CITATION,
    asOf: typeof asOf === 'string' ? asOf : null,
    preview: meta?.derivedFrom ? undefined : meta?.previewInfo,
  });
}

/** One market brief; with `fields` only those (from a cached /all page that holds the market, when one does). */
export async function brief(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const slug = text(args.slug) ?? '';
  const fields = fieldList(args.fields);
  const path = `/api/v1/market-brief/${slug.trim()}`;
  if (fields) return fieldsAnswer(await marketBriefFields(ctx.client, slug, fields, ctx.call), fields, path);
  const b = await marketBrief(ctx.client, slug, ctx.call);
  return recordAnswer(b, b, {
    path,
    citation: DCPI_CITATION,
    asOf: b.hero.computed_at ?? null,
    preview: undefined,
    extra: { paywall: (b as { paywall?: unknown }).paywall ?? null },
  });
}

/** One market's DCPI (a record), some of its fields, or without a market the leaderboard. */
export async function dcpi(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const market = text(args.market);
  if (market !== undefined) {
    const path = `/api/v1/dcpi/scores/${market.trim()}`;
    const fields = fieldList(args.fields);
    if (fields) return fieldsAnswer(await dcpiScoreFields(ctx.client, market, fields, ctx.call), fields, path);
    const s = await dcpiScore(ctx.client, market, ctx.call);
    return recordAnswer(s, s, { path, citation: DCPI_CITATION, asOf: s.computed_at ?? null });
  }
  const board = await dcpiLeaderboard(
    ctx.client,
    { verdict: text(args.verdict), limit: args.limit as number | undefined },
    ctx.call,
  );
  const citation =
    typeof (board as { citation?: unknown }).citation === 'string'
      ? (board as { citation: string }).citation
      : DCPI_CITATION;
  return tableAnswer(board.leaderboard, LEADERBOARD_COLUMNS, board, {
    path: '/api/v1/dcpi/leaderboard',
    citation,
    asOf: (board as { as_of?: string }).as_of ?? null,
  });
}

/**
 * Every market's DCPI (its coordinates too: the markets map and the quadrant draw from it); numbers masked below a paid
 * plan.
 */
export async function dcpiScores(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = {
    verdict: text(args.verdict),
    iso: text(args.iso),
    state: text(args.state),
    sort: text(args.sort),
    limit: args.limit as number | undefined,
  };
  const l = await fetchDcpiScores(ctx.client, q, ctx.call);
  return tableAnswer(l.scores, DCPI_SCORE_COLUMNS, l, {
    path: '/api/v1/dcpi/scores',
    citation: DCPI_CITATION,
    asOf: latestTime(l.scores.map((r) => r.computed_at)) ?? null,
  });
}

/** Scored markets of the caller's tier. */
export async function markets(_args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const m = await listMarkets(ctx.client, ctx.call);
  return tableAnswer(m.data, MARKET_LIST_COLUMNS, m, {
    path: '/api/v1/markets/list',
    citation: citationOf(m),
    note: m.locked ? `${m.locked} more markets with a higher tier` : null,
    extra: { tier: (m as { tier?: string }).tier ?? null },
  });
}

/** One market's details. */
export async function market(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const name = text(args.name) ?? '';
  const m = await getMarket(ctx.client, name, ctx.call);
  return recordAnswer(m, m, { path: `/api/v1/markets/${name.trim()}`, citation: citationOf(m) });
}
