import { describeGated, previewInfo } from '../preview.js';
import {
  NewsArticle,
  NewsList,
  PipelineProject,
  PipelineResponse,
  Transaction,
  TransactionList,
  type NewsListT,
  type PipelineResponseT,
  type TransactionListT,
} from '../schemas/feeds.js';
import type { ReadContext, Reader } from './decode.js';
import { listAnswer, parseTolerant, readRecords, textOf, nameBy } from './tolerant.js';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Missing text members of a row as null (a blank), so that a short row still reads. */
const blanks = (keys: readonly string[]) => (r: Record<string, unknown>) => {
  const out = { ...r };
  for (const k of keys) if (out[k] === undefined) out[k] = null;
  return out;
};

/**
 * The "free tier: showing 3 of N with basic fields" cut of the feeds, described as a preview: rows
 * that lack the full fields (`full`) under `full_results_available` (a keyed page has them).
 */
function notePartial(
  top: Record<string, unknown>,
  rows: readonly Record<string, unknown>[],
  total: number | undefined,
  full: readonly string[],
  ctx: ReadContext,
): void {
  const gated = describeGated(top, { sent: ctx.params });
  if (gated) {
    ctx.preview = { ...gated, shown: rows.length, total: gated.total ?? total };
    return;
  }
  const present = new Set(rows.flatMap((r) => Object.keys(r)));
  const locked = full.filter((f) => !present.has(f));
  if (top.full_results_available === true && rows.length && locked.length) {
    ctx.preview = previewInfo({
      shown: rows.length,
      total,
      lockedFields: locked,
      message: textOf(top.note),
      upgradeUrl: textOf(top.upgrade_url),
    });
  }
}

/** GET /api/news and aliases (notes §2.12): `articles` or `data`, counts filled, short rows blank-filled. */
export const readNews: Reader<NewsListT> = {
  what: 'news',
  read(json, ctx) {
    const { head, list } = listAnswer(json, 'articles', ['data', 'results'], 'articles');
    const articles = readRecords(list, NewsArticle, ctx.warnings, {
      what: 'article',
      name: nameBy('article', 'title', { max: 40 }),
      mend: blanks(['summary', 'url', 'source', 'published_at', 'category']),
    });
    const parsed = parseTolerant(NewsList, {
      success: true,
      source: '',
      total: articles.length,
      ...head,
      count: articles.length,
      articles: [],
    });
    parsed.articles = articles;
    return parsed;
  },
};

/**
 * GET /api/v1/transactions and /api/deals (notes §2.13): the keyless answer (3 deals, basic fields,
 * `total_matching`) and the cached variant without statistics read into one shape. The `transactions`
 * list is preferred over `data` (which the service may cut to 5).
 */
export const readTransactions: Reader<TransactionListT> = {
  what: 'transactions',
  read(json, ctx) {
    const { top, head, list } = listAnswer(json, 'transactions', ['data', 'deals', 'results'], 'deals');
    const deals = readRecords(list, Transaction, ctx.warnings, {
      what: 'deal',
      name: (r, i) => {
        const o = (r ?? {}) as Record<string, unknown>;
        return `deal ${textOf(o.buyer) ?? '?'} / ${textOf(o.seller) ?? '?'}${textOf(o.date) ? ` (${textOf(o.date)})` : ''}`.replace(
          'deal ? / ?',
          `deal ${i + 1}`,
        );
      },
      mend: blanks(['date', 'buyer', 'seller', 'type', 'market', 'region']),
    });
    const total = num(head.total_count) ?? num(head.total_matching) ?? num(head.total) ?? deals.length;
    const parsed = parseTolerant(TransactionList, {
      success: true,
      ...head,
      count: deals.length,
      total_count: total,
      transactions: [],
    });
    parsed.transactions = deals;
    notePartial(top, deals, total, ['id', 'year', 'value', 'value_display', 'mw'], ctx);
    return parsed;
  },
};

/** GET /api/v1/pipeline (notes §2.14): rows without ids, `operational` status, `data`/`pipeline` either one. */
export const readPipeline: Reader<PipelineResponseT> = {
  what: 'pipeline',
  read(json, ctx) {
    const { top, head, list } = listAnswer(json, 'data', ['pipeline', 'projects', 'results'], 'projects');
    const projects = readRecords(list, PipelineProject, ctx.warnings, {
      what: 'project',
      name: nameBy('project', 'project'),
      mend: (r) => ({
        ...blanks(['company', 'project', 'market', 'delivery', 'type', 'capacity', 'investment', 'preleased'])(r),
        status: textOf(r.status) ?? 'unknown',
      }),
    });
    const total = num(head.total_count) ?? num(head.total) ?? projects.length;
    const parsed = parseTolerant(PipelineResponse, {
      success: true,
      ...head,
      count: projects.length,
      total_count: total,
      data: [],
      pipeline: [],
    });
    parsed.data = projects;
    parsed.pipeline = projects;
    notePartial(top, projects, total, [], ctx);
    return parsed;
  },
};
