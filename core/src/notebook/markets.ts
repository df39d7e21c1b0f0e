import { fetchBriefsAll, fetchBriefsAllPages, fetchBriefsDiff } from '../briefs.js';
import { fetchMeta } from '../call.js';
import { ENDPOINTS } from '../endpoints.js';
import { ValidationError } from '../errors.js';
import { dcpiScoreFields, marketBriefFields } from '../markets.js';
import type { PagesProgress } from '../paging.js';
import { requestOf, shapeAnswer, type Shaped } from '../resource.js';
import { call } from '../resource-call.js';
import { DCPI_CITATION } from '../resources/markets.js';
import type { MarketBriefAllT, MarketBriefDiffT } from '../schemas/briefs.js';
import { readPath } from '../table.js';
import { recordAnswer, shapedAnswer, type NotebookAnswer } from './answer.js';
import { text, wholeNumber, type MethodContext } from './context.js';

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
  data: MarketBriefAllT | MarketBriefDiffT,
  asked: { path: string; shaped: Shaped },
  extra: Record<string, unknown>,
): NotebookAnswer {
  const meta = fetchMeta(data);
  const failed = failedBriefs(meta?.warnings ?? []);
  const note = failed.length ? `${failed.join(', ')}: brief failed to build on the service` : null;
  const answer = shapedAnswer({ meta, ...asked }, { note, extra: { ...extra, failed } });
  if (note) answer.warnings.push({ category: 'note', message: `DC Hub: ${note}` });
  return answer;
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
  const shaped = shapeAnswer(ENDPOINTS.briefsAll, all);
  return briefsAnswer(all, { path: ENDPOINTS.briefsAll.path, shaped }, { tier: all.tier || null });
}

/** Every brief recomputed after `since`, all pages of /diff; never from the cache. */
export async function briefsDiff(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const since = text(args.since);
  if (since === undefined || since.trim() === '') throw new ValidationError('since', 'is required (an ISO 8601 time)');
  const d = await fetchBriefsDiff(ctx.client, since.trim(), {
    ...ctx.call,
    onProgress: (p) => p.pagesTotal > 1 && ctx.progress(pagesLine('changed briefs')(p)),
  });
  const shaped = shapeAnswer(ENDPOINTS.briefsDiff, d);
  return briefsAnswer(
    d,
    { path: ENDPOINTS.briefsDiff.path, shaped },
    {
      tier: d.tier || null,
      changed_total: d.changed_total,
      since: since.trim(),
    },
  );
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
  if (fields) {
    const { path } = requestOf(ENDPOINTS.brief, { slug });
    return fieldsAnswer(await marketBriefFields(ctx.client, slug, fields, ctx.call), fields, path);
  }
  const a = await call(ctx.client, ENDPOINTS.brief, { slug }, ctx.call);
  return shapedAnswer(a, { extra: { paywall: (a.data as { paywall?: unknown }).paywall ?? null } });
}

/** One market's DCPI (a record), some of its fields, or without a market the leaderboard. */
export async function dcpi(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const market = text(args.market);
  if (market !== undefined) {
    const fields = fieldList(args.fields);
    if (fields) {
      const { path } = requestOf(ENDPOINTS.dcpiMarket, { market_slug: market });
      return fieldsAnswer(await dcpiScoreFields(ctx.client, market, fields, ctx.call), fields, path);
    }
    return shapedAnswer(await call(ctx.client, ENDPOINTS.dcpiMarket, { market_slug: market }, ctx.call));
  }
  const input = { verdict: text(args.verdict), limit: args.limit as number | undefined };
  return shapedAnswer(await call(ctx.client, ENDPOINTS.dcpiLeaderboard, input, ctx.call));
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
  return shapedAnswer(await call(ctx.client, ENDPOINTS.dcpiScores, q, ctx.call));
}

/** Scored markets of the caller's tier. */
export async function markets(_args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  const a = await call(ctx.client, ENDPOINTS.marketList, {}, ctx.call);
  return shapedAnswer(a, { extra: { tier: (a.data as { tier?: string }).tier ?? null } });
}

/** One market's details. */
export async function market(args: Record<string, unknown>, ctx: MethodContext): Promise<NotebookAnswer> {
  return shapedAnswer(await call(ctx.client, ENDPOINTS.market, { market_name: text(args.name) ?? '' }, ctx.call));
}
