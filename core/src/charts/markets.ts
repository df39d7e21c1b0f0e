import { inAlbersUsa, outlinesLayer } from './geo.js';
import { CATEGORY_GUTTER, inkColor, mapSize, NUMBER_GUTTER, plotWidth, type ChartLayout } from './layout.js';
import { SCORE_COLOR, verdictColor, verdictShape } from './palette.js';
import { selectablePoints } from './select.js';
import { monthsBars } from './queue.js';
import { chartSpec, field, label, omittedNote, type ChartData, type ChartSummary, type VegaLiteSpec } from './spec.js';

/**
 * Charts of the DC Hub Power Index: the leaderboard, where the markets are, excess power against
 * constraint, and time to power by market. Free keys get null scores: those markets are left out
 * of what needs the score and counted in the footer.
 */

interface Market {
  slug: string;
  name: string;
  verdict: string;
  composite: number | undefined;
  excess: number | undefined;
  constraint: number | undefined;
  ttp: number | undefined;
  lat: number | undefined;
  lon: number | undefined;
  iso: string;
  state: string;
}

/** A market from a DCPI scores row, a leaderboard row or a brief row (their names differ). */
function marketOf(r: Record<string, unknown>): Market {
  const slug = label(r, 'market_slug', 'slug', 'market') ?? '';
  return {
    slug,
    name: label(r, 'market_name', 'display_name', 'name') ?? slug,
    verdict: (label(r, 'verdict') ?? '').toUpperCase(),
    composite: field(r, 'composite_score', 'score'),
    excess: field(r, 'excess_power_score', 'excess_power'),
    constraint: field(r, 'constraint_score'),
    ttp: field(r, 'time_to_power_months', 'queue_wait_months'),
    lat: field(r, 'latitude', 'lat'),
    lon: field(r, 'longitude', 'lng', 'lon'),
    iso: label(r, 'iso') ?? '',
    state: label(r, 'state') ?? '',
  };
}

const tooltip = [
  { field: 'name', title: 'Market' },
  { field: 'verdict', title: 'Verdict' },
  { field: 'composite', title: 'Composite score', format: '.1f' },
  { field: 'excess', title: 'Excess power score', format: '.1f' },
  { field: 'constraint', title: 'Constraint score', format: '.1f' },
  { field: 'ttp', title: 'Time to power (months)', format: '.1f' },
  { field: 'iso', title: 'ISO' },
  { field: 'state', title: 'State' },
];

const COMPOSITE_TITLE = 'Composite score (0–100)';
const leaderboardTitle = (n: number) => `DCPI leaderboard: top ${n} markets`;
const NO_SCORE = 'markets have no composite score (free keys get null scores)';

/** The markets of the rows, and the `top` of them by composite score (those without one are left out). */
function topMarkets(d: ChartData, top = 20): { all: Market[]; scored: Market[]; shown: Market[] } {
  const all = d.rows.map(marketOf);
  const scored = all.filter((m) => m.composite !== undefined);
  return { all, scored, shown: [...scored].sort((a, b) => b.composite! - a.composite!).slice(0, top) };
}

/** The leaderboard as a table: market, composite score (charted), verdict (shown beside). */
export function leaderboardSummary(d: ChartData, opts: { top?: number } = {}): ChartSummary {
  const { all, scored, shown } = topMarkets(d, opts.top);
  return {
    chart: 'leaderboard',
    title: leaderboardTitle(shown.length),
    categoryTitle: 'Market',
    valueTitle: COMPOSITE_TITLE,
    columns: ['Market', 'Composite score', 'Verdict'],
    rows: shown.map((m) => [m.name, m.composite!, m.verdict]),
    charted: 2,
    colors: [SCORE_COLOR],
    stacked: false,
    valueRange: [0, 100],
    notes: omittedNote(all.length - scored.length, all.length, NO_SCORE),
  };
}

/** The top markets by composite score, coloured by verdict. */
export function leaderboard(d: ChartData, opts: { top?: number } & ChartLayout = {}): VegaLiteSpec {
  const { all, scored, shown } = topMarkets(d, opts.top);
  const width = plotWidth(opts, 480, CATEGORY_GUTTER);
  const view: VegaLiteSpec = {
    width,
    height: Math.max(120, 18 * shown.length),
    data: { values: shown },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'name', type: 'nominal', title: 'Market', sort: '-x' },
      x: { field: 'composite', type: 'quantitative', title: COMPOSITE_TITLE, scale: { domain: [0, 100] } },
      color: verdictColor(),
      tooltip,
    },
  };
  return chartSpec({
    title: leaderboardTitle(shown.length),
    subtitle: 'Composite power-readiness score; colour and tooltip give the verdict',
    description: `Horizontal bars of the DC Hub Power Index composite score for the top ${shown.length} markets, coloured by verdict (BUILD, CAUTION, AVOID).`,
    view,
    width,
    ctx: d,
    layout: opts,
    lacking: NO_SCORE,
    facts: {
      chart: 'leaderboard',
      rows: all.length,
      drawn: shown.length,
      omitted: { no_score: all.length - scored.length },
    },
  });
}

/**
 * Market rows with coordinates: a row without them (a brief carries none) takes the latitude and
 * longitude of the DCPI scores row of the same slug; rows that have them, or no match, stay as they are.
 */
export function withMarketCoordinates(rows: ChartData['rows'], scores: ChartData['rows']): Record<string, unknown>[] {
  const at = new Map(scores.map((s) => [marketOf(s).slug, marketOf(s)] as const));
  return rows.map((r) => {
    const m = marketOf(r);
    const s = at.get(m.slug);
    if ((m.lat !== undefined && m.lon !== undefined) || !s || s.lat === undefined || s.lon === undefined) return r;
    return { ...r, latitude: s.lat, longitude: s.lon };
  });
}

/** Whether some market row has a slug but no coordinates (a brief table): `withMarketCoordinates` can place it. */
export const lacksCoordinates = (rows: ChartData['rows']): boolean =>
  rows.some((r) => {
    const m = marketOf(r);
    return m.slug !== '' && (m.lat === undefined || m.lon === undefined);
  });

/** Markets as points coloured and shaped by verdict: a US map when every market is in the US, else a world map. */
export async function marketsMap(d: ChartData, layout: ChartLayout = {}): Promise<VegaLiteSpec> {
  const all = d.rows.map(marketOf);
  const placed = all.map((m, row) => ({ ...m, row })).filter((m) => m.lat !== undefined && m.lon !== undefined);
  const us = placed.length > 0 && placed.every((m) => inAlbersUsa(m.lat!, m.lon!));
  const outlines = await outlinesLayer(us ? 'states' : 'countries', layout.theme);
  const size = mapSize(layout, { width: 640, height: us ? 400 : 340 });
  const view: VegaLiteSpec = {
    ...size,
    projection: { type: us ? 'albersUsa' : 'equalEarth' },
    layer: [
      outlines,
      selectablePoints(
        {
          data: { values: placed },
          mark: {
            type: 'point',
            filled: true,
            size: 90,
            opacity: 0.85,
            stroke: layout.theme?.axis ?? '#333333',
            strokeWidth: 0.5,
          },
          encoding: {
            longitude: { field: 'lon', type: 'quantitative' },
            latitude: { field: 'lat', type: 'quantitative' },
            color: verdictColor(),
            shape: verdictShape(),
            tooltip,
          },
        },
        inkColor(layout.theme),
      ),
    ],
  };
  return chartSpec({
    title: `Markets by DCPI verdict${us ? '' : ' (world)'}`,
    description: `${us ? 'US' : 'World'} map of ${placed.length} data-center markets, each a point coloured and shaped by its DCPI verdict.`,
    view,
    width: size.width,
    ctx: d,
    layout,
    lacking: 'markets have no coordinates',
    facts: {
      chart: 'markets_map',
      rows: all.length,
      drawn: placed.length,
      omitted: { no_coordinates: all.length - placed.length },
    },
  });
}

/** Excess power against constraint, one point per market, coloured and shaped by verdict. */
export function marketQuadrant(d: ChartData, layout: ChartLayout = {}): VegaLiteSpec {
  const all = d.rows.map(marketOf);
  const both = all.filter((m) => m.excess !== undefined && m.constraint !== undefined);
  const mid = (v: number) => ({
    data: { values: [{ v }] },
    mark: { type: 'rule', color: layout.theme?.axis ?? '#999999', strokeDash: [2, 2] },
  });
  const side = plotWidth(layout, 420, NUMBER_GUTTER);
  const view: VegaLiteSpec = {
    width: side,
    height: side,
    layer: [
      { ...mid(50), encoding: { x: { field: 'v', type: 'quantitative' } } },
      { ...mid(50), encoding: { y: { field: 'v', type: 'quantitative' } } },
      {
        data: { values: both },
        mark: { type: 'point', filled: true, size: 80, opacity: 0.85 },
        encoding: {
          x: {
            field: 'excess',
            type: 'quantitative',
            title: 'Excess power score (0–100)',
            scale: { domain: [0, 100] },
          },
          y: {
            field: 'constraint',
            type: 'quantitative',
            title: 'Constraint score (0–100, higher is more constrained)',
            scale: { domain: [0, 100] },
          },
          color: verdictColor(),
          shape: verdictShape(),
          tooltip,
        },
      },
    ],
  };
  return chartSpec({
    title: 'Excess power against constraint',
    description: `Scatter of ${both.length} markets: excess power score against constraint score, coloured and shaped by DCPI verdict; dashed rules at 50.`,
    view,
    width: side,
    ctx: d,
    layout,
    lacking: 'markets lack an excess-power or constraint score (free keys get null scores)',
    facts: {
      chart: 'market_quadrant',
      rows: all.length,
      drawn: both.length,
      omitted: { no_scores: all.length - both.length },
    },
  });
}

/** Months to power per market (the quickest first), coloured by verdict, against `maxTtpMonths`. */
export function marketTimeToPower(
  d: ChartData,
  opts: { maxTtpMonths?: number; top?: number } & ChartLayout = {},
): VegaLiteSpec {
  const width = plotWidth(opts, 480, CATEGORY_GUTTER);
  const all = d.rows.map(marketOf);
  const known = all.filter((m) => m.ttp !== undefined);
  const shown = [...known].sort((a, b) => a.ttp! - b.ttp!).slice(0, opts.top ?? 25);
  const view = monthsBars({
    values: shown as unknown as Record<string, unknown>[],
    category: { field: 'name', title: 'Market' },
    months: { field: 'ttp', title: 'Time to power (months)' },
    color: verdictColor(),
    limit: opts.maxTtpMonths,
    width,
    ink: inkColor(opts.theme),
    tooltip,
  });
  return chartSpec({
    title: 'Time to power by market',
    description: `Bars of months to power for ${shown.length} markets, coloured by DCPI verdict${opts.maxTtpMonths !== undefined ? `, with a rule at your limit of ${opts.maxTtpMonths} months` : ''}.`,
    view,
    width,
    ctx: d,
    layout: opts,
    lacking: 'markets have no time to power',
    facts: {
      chart: 'market_time_to_power',
      rows: all.length,
      drawn: shown.length,
      omitted: { no_estimate: all.length - known.length },
    },
  });
}
