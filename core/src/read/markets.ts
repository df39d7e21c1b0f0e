import { SchemaDriftError } from '../errors.js';
import { describeGated, previewInfo } from '../preview.js';
import {
  AiCapacityIndex,
  DCPI_INPUT_FIELDS,
  AiCapacityMarket,
  DcpiLeaderboard,
  DcpiLeaderboardRow,
  DcpiScoreResponse,
  MarketList,
  MarketListRow,
  PlatformStats,
  type AiCapacityIndexT,
  type DcpiLeaderboardT,
  type DcpiScoreResponseT,
  type MarketListT,
  type PlatformStatsT,
} from '../schemas/markets.js';
import type { Reader } from './decode.js';
import { listAnswer, isRecord, parseTolerant, readRecords, textOf, nameBy } from './tolerant.js';

/** GET /api/v1/stats (notes §2.1): the real answer leaves several spec totals out; `success` assumed when absent. */
export const readStats: Reader<PlatformStatsT> = {
  what: 'platform totals',
  read(json) {
    if (!isRecord(json)) throw new SchemaDriftError('', 'the totals answer is not an object');
    const data = isRecord(json.data) ? json.data : undefined;
    if (!data) throw new SchemaDriftError('data', 'missing');
    return parseTolerant(PlatformStats, {
      success: true,
      generated_at: '',
      facilities: data.total_facilities,
      ...json,
    });
  },
};

/**
 * GET /api/v1/markets/list (notes §2.2): rows under `data` (or `markets`, `results`, a bare list),
 * a missing `id` taken from the slug or the name (named in the warnings), `state: null` for markets
 * of other countries, counts filled from the rows, and the tier cap described as a preview.
 */
export const readMarketList: Reader<MarketListT> = {
  what: 'markets',
  read(json, ctx) {
    const { head, list } = listAnswer(json, 'data', ['markets', 'results', 'items'], 'markets');
    let derived = 0;
    const rows = readRecords(list, MarketListRow, ctx.warnings, {
      what: 'market',
      name: (r, i) =>
        textOf((r as Record<string, unknown> | null)?.id) ??
        textOf((r as Record<string, unknown> | null)?.name) ??
        `market ${i + 1}`,
      mend: (r) => {
        if (textOf(r.id)) return r;
        const id = textOf(r.slug) ?? textOf(r.name)?.toLowerCase();
        if (id) derived++;
        return { ...r, id };
      },
    });
    if (derived)
      ctx.warnings.push(`${derived} market${derived > 1 ? 's' : ''} without an id: the slug or name stands in`);
    const count = rows.length;
    const total = typeof head.total === 'number' ? head.total : count;
    const parsed = parseTolerant(MarketList, {
      success: true,
      tier: '',
      upsell: null,
      upgrade_url: null,
      ...head,
      count,
      total,
      locked: typeof head.locked === 'number' ? head.locked : Math.max(0, total - count),
      data: [],
    });
    parsed.data = rows;
    if (parsed.locked > 0) {
      ctx.preview = previewInfo({
        shown: count,
        total,
        hidden: parsed.locked,
        message: parsed.upsell ?? undefined,
        upgradeUrl: parsed.upgrade_url ?? parsed.signup_url ?? undefined,
      });
    }
    return parsed;
  },
};

/**
 * GET /api/v1/dcpi/scores/{slug} (notes §2.6): below the Developer plan the scores come back null
 * with the verdict: delivered as they are and described as a preview when the service marks it.
 */
export const readDcpiScore: Reader<DcpiScoreResponseT> = {
  what: 'DCPI score',
  read(json, ctx) {
    if (!isRecord(json)) throw new SchemaDriftError('', 'the DCPI answer is not an object');
    const o = isRecord(json.data) && json.market_slug === undefined ? { ...json, ...json.data } : json;
    const nulls = (keys: string[]) => Object.fromEntries(keys.filter((k) => o[k] === undefined).map((k) => [k, null]));
    const parsed = parseTolerant(DcpiScoreResponse, {
      ...nulls([
        'composite_score',
        'excess_power_score',
        'constraint_score',
        'time_to_power_months',
        ...DCPI_INPUT_FIELDS,
        'top_risks_json',
        'top_opportunities_json',
      ]),
      ...o,
    });
    const gated = describeGated(o, {});
    if (gated) ctx.preview = gated;
    else if (parsed.locked === true)
      ctx.preview = previewInfo({
        requiredTier: parsed.tier_required,
        lockedFields: ['composite_score', 'excess_power_score', 'constraint_score', 'time_to_power_months'].filter(
          (k) => (parsed as Record<string, unknown>)[k] === null,
        ),
      });
    return parsed;
  },
};

/**
 * GET /api/v1/ai-capacity-index (notes §2.8): June rows without `ai_ready_mw` get a blank one, the
 * keyless tease (bands instead of numbers) is read as a preview, one bad row is named.
 */
export const readAiCapacity: Reader<AiCapacityIndexT> = {
  what: 'AI capacity index',
  read(json, ctx) {
    const { top, head, list } = listAnswer(json, 'markets', ['data', 'results'], 'markets');
    let filled = 0;
    const markets = readRecords(list, AiCapacityMarket, ctx.warnings, {
      what: 'market',
      name: nameBy('market', 'market', { bare: true }),
      mend: (r, _w, i) => {
        const out: Record<string, unknown> = { rank: i + 1, horizon_days: top.horizon_days ?? null, ...r };
        if (typeof out.deployable_mw === 'number' || out.deployable_mw === null)
          out.deployable_mw = { value: out.deployable_mw };
        if (!isRecord(out.ai_ready_mw)) {
          filled++;
          out.ai_ready_mw = { value: null, basis: 'not served' };
        } else if (typeof out.ai_ready_mw.basis !== 'string') out.ai_ready_mw = { ...out.ai_ready_mw, basis: 'proxy' };
        return out;
      },
    });
    if (filled) ctx.warnings.push(`ai_ready_mw not served for ${filled} market${filled > 1 ? 's' : ''} (left blank)`);
    const parsed = parseTolerant(AiCapacityIndex, {
      index_name: 'AI Compute Capacity Index',
      computed_at: '',
      methodology: '',
      horizon_days: Number(ctx.params?.get('horizon') ?? 90),
      ...head,
      result_count: markets.length,
      markets: [],
    });
    parsed.markets = markets;
    const gated = describeGated(top, { rows: markets, sent: ctx.params });
    if (gated) ctx.preview = gated;
    return parsed;
  },
};

/**
 * GET /api/v1/dcpi/leaderboard: the head's members filled when the service leaves them out
 * (`as_of` from the rows, `count`, `filter`), and a row whose value does not read as the schema
 * says (a band such as `"10–50 MW"` where a score should be) kept as served and named.
 */
export const readDcpiLeaderboard: Reader<DcpiLeaderboardT> = {
  what: 'DCPI leaderboard',
  read(json, ctx) {
    const { head, list } = listAnswer(json, 'leaderboard', ['data', 'results', 'markets'], 'leaderboard rows');
    const rows = readRecords(list, DcpiLeaderboardRow, ctx.warnings, {
      what: 'leaderboard row',
      name: nameBy('row', 'market_slug', { bare: true }),
      mend: (r, _warn, i) => ({
        rank: i + 1,
        market_name: textOf(r.market_slug) ?? '',
        iso: null,
        state: null,
        excess_power_score: null,
        constraint_score: null,
        time_to_power_months: null,
        verdict: '',
        computed_at: '',
        url: '',
        composite_score: null,
        ...r,
      }),
      keepBad: (r) => r as DcpiLeaderboardT['leaderboard'][number],
    });
    const asOf = rows.reduce(
      (m, r) => (typeof r.computed_at === 'string' && r.computed_at > m ? r.computed_at : m),
      '',
    );
    const parsed = parseTolerant(DcpiLeaderboard, {
      as_of: asOf,
      count: rows.length,
      filter: { verdict: null, excludes_low_signal: false },
      methodology_url: '',
      citation: 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0',
      ...head,
      leaderboard: [],
    });
    parsed.leaderboard = rows;
    return parsed;
  },
};
