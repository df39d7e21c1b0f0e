import { ValidationError } from '../errors.js';
import { leaderboard, leaderboardSummary, marketQuadrant, marketsMap, marketTimeToPower } from './markets.js';
import { queueMap, queueMix, queueMixSummary, queueTimeToPower } from './queue.js';
import { ranking, rankingSummary, siteScore } from './sites.js';
import { countLines } from './counts.js';
import type { ChartLayout } from './layout.js';
import type { ChartData, ChartSummary, VegaLiteSpec } from './spec.js';

export * from './spec.js';
export {
  FUEL_GROUPS,
  FUEL_COLORS,
  LOW_IS_GOOD,
  METRIC_COLORS,
  SCORE_COLOR,
  VERDICT_COLORS,
  VERDICT_ORDER,
  VERDICT_SHAPES,
  fuelGroup,
  fuelGroupColor,
  verdictColorOf,
  type FuelGroup,
} from './palette.js';
export { lacksCoordinates, leaderboardSummary, withMarketCoordinates } from './markets.js';
export { queueMixSummary, queueMixTotals } from './queue.js';
export { rankingSummary } from './sites.js';
export { GEO_NOTICE } from './geo.js';
export { DARK_THEME, LIGHT_THEME, NARROW, wrapText, type ChartLayout, type ChartTheme } from './layout.js';
export { chartTable, type ChartTable } from './table.js';
export { countLines, partOf } from './counts.js';
export {
  leaderboard,
  marketQuadrant,
  marketsMap,
  marketTimeToPower,
  queueMap,
  queueMix,
  queueTimeToPower,
  ranking,
  siteScore,
};
export { POINT_SELECTION, SELECTABLE_CHARTS, STORE_TUPLES_MAX, selectedRows, selectionStore } from './select.js';

/**
 * Options a chart may take: the user's time-to-power limit, how many to show, a ranking's weights; and the host's
 * layout (its width and theme, see ChartLayout).
 */
export interface ChartOptions extends ChartLayout {
  maxTtpMonths?: number;
  top?: number;
  objectives?: Record<string, number>;
}

/** Every chart by name (the names the Python API's `charts` module and the hosts use), and what it draws from. */
export const CHARTS: Readonly<
  Record<string, { from: string; build: (d: ChartData, o: ChartOptions) => VegaLiteSpec | Promise<VegaLiteSpec> }>
> = {
  queue_map: { from: 'refined queue', build: (d, o) => queueMap(d, o) },
  queue_mix: { from: 'refined queue', build: (d, o) => queueMix(d, o) },
  queue_time_to_power: { from: 'refined queue', build: (d, o) => queueTimeToPower(d, o) },
  leaderboard: { from: 'DCPI scores, leaderboard or briefs', build: (d, o) => leaderboard(d, o) },
  markets_map: { from: 'DCPI scores', build: (d, o) => marketsMap(d, o) },
  market_quadrant: { from: 'DCPI scores', build: (d, o) => marketQuadrant(d, o) },
  market_time_to_power: { from: 'DCPI scores or briefs', build: (d, o) => marketTimeToPower(d, o) },
  ranking: { from: 'rank-sites answer', build: (d, o) => ranking(d, o) },
  site_score: { from: 'site-score answer', build: (d, o) => siteScore(d, o) },
};

/** A chart by name; an unknown name is refused with the known ones. */
export async function buildChart(name: string, data: ChartData, options: ChartOptions = {}): Promise<VegaLiteSpec> {
  const chart = Object.prototype.hasOwnProperty.call(CHARTS, name) ? CHARTS[name] : undefined;
  if (!chart)
    throw new ValidationError(
      'chart',
      `unknown chart ${JSON.stringify(name)}; one of ${Object.keys(CHARTS).join(', ')}`,
    );
  return chart.build(data, options);
}

/** A summary with the subtitle its Vega-Lite chart has: what part of the whole it shows. */
const counted = (s: ChartSummary, d: ChartData): ChartSummary => {
  const subtitle = countLines(s.chart, d, d.rows.length);
  return subtitle.length ? { ...s, subtitle } : s;
};

/** The charts a host draws natively from a small table (Excel's charts), by the same names. */
export const SUMMARIES = {
  leaderboard: (d: ChartData, o: ChartOptions = {}) => counted(leaderboardSummary(d, o), d),
  queue_mix: (d: ChartData) => counted(queueMixSummary(d), d),
  ranking: (d: ChartData, o: ChartOptions = {}) => counted(rankingSummary(d, o), d),
} as const;
export type SummaryName = keyof typeof SUMMARIES;
