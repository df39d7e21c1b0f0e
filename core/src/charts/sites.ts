import { CATEGORY_GUTTER, plotWidth, type ChartLayout } from './layout.js';
import { METRIC_COLORS, SCORE_COLOR } from './palette.js';
import { chartSpec, field, label, omittedNote, type ChartData, type ChartSummary, type VegaLiteSpec } from './spec.js';

/**
 * Charts of sites: why a ranking's first beats the rest (each objective's weighted share of the
 * objective score), and a site score's components against its overall score.
 */

/** A candidate as the charts name it: `#1 Name`. */
const candidateName = (r: Record<string, unknown>) =>
  `#${field(r, 'rank') ?? '?'} ${label(r, 'project_name', 'name', 'id') ?? ''}`.trim();
const SCORE_TITLE = 'Objective score (0–100)';
const RANKING_TITLE = 'Why the ranking came out this way';
const NO_OBJECTIVE = 'candidates carry no objective';

/**
 * Each shown candidate's contribution per objective: |weight| × normalized value ÷ the sum of the
 * |weights| the candidate carries — the service's own formula, so the contributions add up to the
 * objective score. Without the weights every objective weighs the same.
 */
function contributions(d: ChartData, opts: { objectives?: Record<string, number>; top?: number }) {
  const metrics = opts.objectives
    ? Object.keys(opts.objectives)
    : [
        ...new Set(
          d.rows.flatMap((r) =>
            Object.keys(r)
              .filter((k) => k.startsWith('norm_'))
              .map((k) => k.slice(5)),
          ),
        ),
      ];
  const weight = (m: string) => Math.abs(opts.objectives?.[m] ?? 1);
  const ranked = d.rows.filter((r) => field(r, 'objective_score') !== undefined);
  const shown = [...ranked]
    .sort((a, b) => (field(a, 'rank') ?? Infinity) - (field(b, 'rank') ?? Infinity))
    .slice(0, opts.top ?? 15);
  const values: Record<string, unknown>[] = [];
  for (const r of shown) {
    const norms = metrics.map((m) => [m, field(r, `norm_${m}`)] as const).filter(([, n]) => n !== undefined);
    const total = norms.reduce((s, [m]) => s + weight(m), 0);
    for (const [m, n] of norms) {
      values.push({
        candidate: candidateName(r),
        rank: field(r, 'rank'),
        metric: m,
        contribution: total ? Math.round(((weight(m) * n!) / total) * 100) / 100 : 0,
        normalized: n,
        weight: opts.objectives?.[m] ?? null,
        score: field(r, 'objective_score'),
      });
    }
  }
  return { metrics, ranked, shown, values };
}

/**
 * A ranking as a table, one row per candidate in rank order: with the objectives' weights, each
 * objective's contribution (stacked, they make the score); without them, the objective score alone.
 */
export function rankingSummary(
  d: ChartData,
  opts: { objectives?: Record<string, number>; top?: number } = {},
): ChartSummary {
  const { metrics, ranked, shown, values } = contributions(d, opts);
  const notes = omittedNote(d.rows.length - ranked.length, d.rows.length, NO_OBJECTIVE);
  const base = {
    chart: 'ranking',
    categoryTitle: 'Candidate',
    valueTitle: SCORE_TITLE,
    valueRange: [0, 100] as [number, number],
    notes,
  };
  if (!opts.objectives) {
    return {
      ...base,
      title: 'Objective score by candidate',
      columns: ['Candidate', 'Objective score'],
      rows: shown.map((r) => [candidateName(r), field(r, 'objective_score')!]),
      charted: 2,
      colors: [SCORE_COLOR],
      stacked: false,
    };
  }
  const share = (c: string, m: string) =>
    (values.find((v) => v.candidate === c && v.metric === m)?.contribution as number | undefined) ?? 0;
  return {
    ...base,
    title: RANKING_TITLE,
    columns: ['Candidate', ...metrics],
    rows: shown.map((r) => [candidateName(r), ...metrics.map((m) => share(candidateName(r), m))]),
    charted: 1 + metrics.length,
    colors: METRIC_COLORS.slice(0, metrics.length),
    stacked: true,
  };
}

/** Objective score per candidate, stacked by each objective's contribution (see `contributions`). */
export function ranking(
  d: ChartData,
  opts: { objectives?: Record<string, number>; top?: number } & ChartLayout = {},
): VegaLiteSpec {
  const { metrics, ranked, shown, values } = contributions(d, opts);
  const width = plotWidth(opts, 480, CATEGORY_GUTTER);
  const view: VegaLiteSpec = {
    width,
    height: Math.max(120, 22 * shown.length),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'candidate', type: 'nominal', title: 'Candidate', sort: { field: 'rank', order: 'ascending' } },
      x: { aggregate: 'sum', field: 'contribution', type: 'quantitative', title: SCORE_TITLE },
      color: {
        field: 'metric',
        type: 'nominal',
        title: 'Objective',
        scale: { domain: metrics, range: METRIC_COLORS.slice(0, Math.max(1, metrics.length)) },
      },
      tooltip: [
        { field: 'candidate', title: 'Candidate' },
        { field: 'metric', title: 'Objective' },
        { field: 'weight', title: 'Weight (+ maximizes, − minimizes)' },
        { field: 'normalized', title: 'Normalized (0–100)', format: '.1f' },
        { field: 'contribution', title: 'Share of the score', format: '.1f' },
        { field: 'score', title: 'Objective score', format: '.1f' },
      ],
    },
  };
  return chartSpec({
    title: RANKING_TITLE,
    subtitle: 'Objective score per candidate, split by each objective’s weighted contribution',
    description: `Stacked horizontal bars for ${shown.length} ranked candidates: each bar is the objective score, split into the weighted contributions of ${metrics.join(', ')}.`,
    view,
    width,
    ctx: d,
    layout: opts,
    lacking: NO_OBJECTIVE,
    facts: {
      chart: 'ranking',
      rows: d.rows.length,
      drawn: shown.length,
      omitted: { no_objective: d.rows.length - ranked.length },
    },
  });
}

/** A member of a site-score record, nested (`scores.fiber_connectivity` as an object path) or flattened. */
function member(r: Record<string, unknown>, path: string): unknown {
  if (path in r) return r[path];
  return path
    .split('.')
    .reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), r);
}

const COMPONENTS: Array<[string, string]> = [
  ['scores.power_infrastructure', 'Power infrastructure'],
  ['scores.gas_pipeline_access', 'Gas pipeline access'],
  ['scores.fiber_connectivity', 'Fiber connectivity'],
  ['scores.market_conditions', 'Market conditions'],
  ['scores.risk_resilience', 'Risk and resilience'],
];

/** A site score's components as bars (0–100), the overall score as a rule, the capacity asked in the subtitle. */
export function siteScore(d: ChartData, layout: ChartLayout = {}): VegaLiteSpec {
  const width = plotWidth(layout, 420, CATEGORY_GUTTER, false);
  const r = d.rows[0] ?? {};
  const num = (p: string) => field({ v: member(r, p) }, 'v');
  const values = COMPONENTS.map(([p, name]) => ({ component: name, score: num(p) })).filter(
    (v) => v.score !== undefined,
  );
  const overall = num('overall_score');
  const capacity = num('capacity_requested_mw') ?? num('capacity_mw');
  const lat = num('location.lat');
  const lon = num('location.lon') ?? num('location.lng');
  const place = lat !== undefined && lon !== undefined ? `${lat.toFixed(3)}, ${lon.toFixed(3)}` : 'the site';
  const layers: VegaLiteSpec[] = [
    {
      data: { values },
      mark: { type: 'bar', color: SCORE_COLOR },
      encoding: {
        y: { field: 'component', type: 'nominal', title: null, sort: null },
        x: { field: 'score', type: 'quantitative', title: 'Score (0–100)', scale: { domain: [0, 100] } },
        tooltip: [
          { field: 'component', title: 'Component' },
          { field: 'score', title: 'Score', format: '.1f' },
        ],
      },
    },
  ];
  if (overall !== undefined) {
    layers.push({
      data: { values: [{ overall, what: 'Overall score' }] },
      mark: { type: 'rule', color: '#D55E00', strokeWidth: 2 },
      encoding: {
        x: { field: 'overall', type: 'quantitative' },
        tooltip: [
          { field: 'what', title: 'Rule' },
          { field: 'overall', title: 'Score', format: '.1f' },
        ],
      },
    });
  }
  const interpretation =
    typeof member(r, 'interpretation') === 'string' ? String(member(r, 'interpretation')) : undefined;
  return chartSpec({
    title: `Site score at ${place}${overall !== undefined ? `: ${overall.toFixed(1)}` : ''}`,
    subtitle:
      [interpretation, capacity !== undefined ? `for ${capacity.toLocaleString('en-US')} MW` : undefined]
        .filter(Boolean)
        .join(' · ') || undefined,
    description: `Bars of the five components of the DC Hub site score at ${place} (0 to 100)${overall !== undefined ? `, with the overall score ${overall.toFixed(1)} as a rule` : ''}.`,
    view: { width, height: 160, layer: layers },
    width,
    ctx: d,
    layout,
    notes: omittedNote(COMPONENTS.length - values.length, COMPONENTS.length, 'components are withheld or blank'),
    facts: {
      chart: 'site_score',
      rows: d.rows.length,
      drawn: values.length,
      omitted: { no_value: COMPONENTS.length - values.length },
    },
  });
}
