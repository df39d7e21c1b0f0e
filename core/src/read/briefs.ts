import Papa from 'papaparse';
import { SchemaDriftError } from '../errors.js';
import { previewInfo } from '../preview.js';
import {
  BRIEF_CSV_COLUMNS,
  BriefCsvRow,
  MarketBrief,
  MarketBriefAll,
  MarketBriefDiff,
  MarketBriefResponse,
  type BriefCsvRowT,
  type MarketBriefAllT,
  type MarketBriefDiffT,
  type MarketBriefResponseT,
  type MarketBriefT,
} from '../schemas/briefs.js';
import type { ReadContext, Reader } from './decode.js';
import { isRecord, listAnswer, parseTolerant, readRecords, textOf } from './tolerant.js';

const slugOf = (r: unknown): string | undefined =>
  isRecord(r)
    ? (textOf(r.slug) ?? textOf(r.market_slug) ?? (isRecord(r.hero) ? textOf(r.hero.slug) : undefined))
    : undefined;

/** A brief the service could not build: `{ok: false, slug, error: "build_failed:<Type>"}`, or one without its hero. */
function buildFailure(r: unknown): string | undefined {
  if (!isRecord(r)) return undefined;
  const err = textOf(r.error);
  if (r.ok === false || err !== undefined || !isRecord(r.hero))
    return `brief failed to build on the service${err ? ` (${err})` : ''}`;
  return undefined;
}

const NULL_KPIS = {
  operational_mw: null,
  pipeline_mw: null,
  facility_count: null,
  vacancy_pct: null,
  lease_rate: null,
  queue_months: null,
  top_operator: null,
};

/** A brief's sections filled the way the service fills them below Pro when it leaves them out. */
function mendBrief(r: Record<string, unknown>, warn: (w: string) => void): Record<string, unknown> {
  const hero = r.hero as Record<string, unknown>;
  const slug = slugOf(r);
  const missing = ['kpis', 'outlook', 'live_as_of'].filter((k) => !isRecord(r[k]));
  if (missing.length) warn(`${slug ?? 'a brief'}: ${missing.join(', ')} missing (left blank)`);
  return {
    ...r,
    slug: textOf(r.slug) ?? slug,
    hero: {
      verdict: 'NODATA',
      computed_at: null,
      iso: null,
      composite_score: null,
      excess_power: null,
      constraint_score: null,
      ...hero,
      slug: textOf(hero.slug) ?? slug,
      name: textOf(hero.name) ?? slug,
    },
    live_as_of: isRecord(r.live_as_of)
      ? { iso: null, age_hours: null, ...r.live_as_of }
      : { iso: null, age_hours: null },
    kpis: isRecord(r.kpis) ? { ...NULL_KPIS, ...r.kpis } : NULL_KPIS,
    // A section the service sent in part is filled the same way (the missing members blank).
    outlook: {
      narrative_md: '',
      word_count: null,
      generated_at: null,
      verdict: hero.verdict ?? 'NODATA',
      rationale: '',
      ...(isRecord(r.outlook) ? r.outlook : {}),
    },
    power_grid: r.power_grid ?? null,
    pipeline: Array.isArray(r.pipeline) ? r.pipeline : [],
    operators: Array.isArray(r.operators) ? r.operators : [],
    ma: Array.isArray(r.ma) ? r.ma : [],
    comps: isRecord(r.comps) ? { powered_shell: [], land: [], ...r.comps } : { powered_shell: [], land: [] },
    risk: r.risk ?? null,
  };
}

/** Sections a brief's paywall withholds (those served as teasers). */
const PRO_SECTIONS = ['power_grid', 'pipeline', 'operators', 'ma', 'comps', 'risk'] as const;

function notePaywall(briefs: readonly MarketBriefT[], ctx: ReadContext): void {
  const walled = briefs.find((b) => b.paywall);
  if (!walled?.paywall) return;
  const empty = (v: unknown) =>
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (isRecord(v) && Object.values(v).every((x) => Array.isArray(x) && x.length === 0));
  ctx.preview = previewInfo({
    withheldSections: PRO_SECTIONS.filter((k) => empty((walled as Record<string, unknown>)[k])),
    requiredTier: walled.paywall.required_tier,
    upgradeUrl: walled.paywall.checkout_url,
    message: walled.paywall.blurb,
  });
}

function readBriefPage(json: unknown, ctx: ReadContext): Record<string, unknown> & { briefs: MarketBriefT[] } {
  const { head, list } = listAnswer(json, 'briefs', ['data', 'results'], 'briefs');
  const briefs = readRecords(list, MarketBrief, ctx.warnings, {
    what: 'brief',
    name: (r, i) => slugOf(r) ?? `brief ${i + 1}`,
    failed: buildFailure,
    mend: (r, warn) => mendBrief(r, warn),
  });
  const param = (k: string) => (ctx.params?.has(k) ? Number(ctx.params.get(k)) : undefined);
  head.count = briefs.length;
  head.total_available = typeof head.total_available === 'number' ? head.total_available : briefs.length;
  head.limit = typeof head.limit === 'number' ? head.limit : (param('limit') ?? 50);
  head.offset = typeof head.offset === 'number' ? head.offset : (param('offset') ?? 0);
  head.streamed = typeof head.streamed === 'boolean' ? head.streamed : false;
  head.tier = typeof head.tier === 'string' ? head.tier : '';
  head.as_of =
    typeof head.as_of === 'string'
      ? head.as_of
      : briefs.reduce((m, b) => (b.hero.computed_at && b.hero.computed_at > m ? b.hero.computed_at : m), '');
  notePaywall(briefs, ctx);
  return { ...head, briefs };
}

/** GET /api/v1/market-brief/all (notes §2.29): a brief that failed to build is named and left out. */
export const readBriefsAll: Reader<MarketBriefAllT> = {
  what: 'market briefs',
  read(json, ctx) {
    const { briefs, ...head } = readBriefPage(json, ctx);
    const parsed = parseTolerant(MarketBriefAll, { ...head, briefs: [] });
    parsed.briefs = briefs;
    return parsed;
  },
};

/** GET /api/v1/market-brief/diff: as /all, plus `since` and `changed_total`. */
export const readBriefsDiff: Reader<MarketBriefDiffT> = {
  what: 'market brief changes',
  read(json, ctx) {
    const { briefs, ...head } = readBriefPage(json, ctx);
    head.since ??= ctx.params?.get('since') ?? null;
    if (typeof head.changed_total !== 'number') head.changed_total = briefs.length;
    const parsed = parseTolerant(MarketBriefDiff, { ...head, briefs: [] });
    parsed.briefs = briefs;
    return parsed;
  },
};

/** GET /api/v1/market-brief/{slug}: one brief; below Pro its paywall is described as a preview. */
export const readBrief: Reader<MarketBriefResponseT> = {
  what: 'market brief',
  read(json, ctx) {
    if (!isRecord(json)) throw new SchemaDriftError('', 'the brief answer is not an object');
    const failure = buildFailure(json);
    if (failure) throw new SchemaDriftError('hero', failure);
    const b = mendBrief(json, (w) => ctx.warnings.push(w));
    const slug = textOf(b.slug) ?? '';
    const parsed = parseTolerant(MarketBriefResponse, {
      ok: true,
      requested: slug,
      redirect_to: null,
      tier: '',
      is_pro: false,
      ...b,
    });
    notePaywall([parsed], ctx);
    return parsed;
  },
};

/**
 * The brief CSV (header row, RFC 4180 quoting) into typed rows. Tolerant: only `market_slug` is
 * required of the columns (others missing are left blank and named in `warnings`); a row the service
 * failed to build (`build_failed:<Type>` in a cell) or without a slug is named and left out.
 */
export function readBriefsCsv(csv: string, warnings: string[] = []): BriefCsvRowT[] {
  const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('market_slug'))
    throw new SchemaDriftError(
      'columns',
      `brief CSV lacks market_slug${fields.length ? ` (columns: ${fields.slice(0, 6).join(', ')}${fields.length > 6 ? ', …' : ''})` : ''}`,
    );
  const missing = BRIEF_CSV_COLUMNS.filter((c) => !fields.includes(c));
  if (missing.length) warnings.push(`brief CSV lacks ${missing.join(', ')} (left blank)`);
  return readRecords(parsed.data, BriefCsvRow, warnings, {
    what: 'brief row',
    name: (r, i) => textOf((r as Record<string, unknown>).market_slug) ?? `row ${i + 2}`,
    failed: (r) => {
      const cells = Object.values(r as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
      const failed = cells.find((v) => /^build_failed\b/.test(v.trim()));
      if (failed) return `brief failed to build on the service (${failed.trim()})`;
      if (!textOf((r as Record<string, unknown>).market_slug)) return 'market_slug missing';
      return undefined;
    },
  });
}
