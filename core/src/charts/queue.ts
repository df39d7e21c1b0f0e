import { fuelColor, fuelGroup, fuelGroupColor, FUEL_GROUPS, SCORE_COLOR, type FuelGroup } from './palette.js';
import { inAlbersUsa, outlinesLayer } from './geo.js';
import { inkColor, mapSize, NUMBER_GUTTER, plotWidth, type ChartLayout } from './layout.js';
import { selectablePoints } from './select.js';
import { chartSpec, field, label, omittedNote, type ChartData, type ChartSummary, type VegaLiteSpec } from './spec.js';

/**
 * Charts of the refined queue: where the projects are (a map), what is queued where (MW by ISO
 * and fuel, the *Queued Up* figure) and how long power takes (months by ISO, against the user's
 * limit).
 */

const MAP_SIZE = { width: 640, height: 400 };

/** The projects a map can place (a point each, with its tooltip's fields), and how many it cannot, by reason. */
function mapPoints(rows: ChartData['rows']): { points: Record<string, unknown>[]; noCoords: number; offMap: number } {
  let noCoords = 0;
  let offMap = 0;
  const points: Record<string, unknown>[] = [];
  for (const [row, r] of rows.entries()) {
    const lat = field(r, 'lat', 'latitude');
    const lon = field(r, 'lng', 'lon', 'longitude');
    if (lat === undefined || lon === undefined) noCoords++;
    else if (!inAlbersUsa(lat, lon)) offMap++;
    else
      points.push({
        row,
        lat,
        lon,
        mw: field(r, 'capacity_mw', 'capacity') ?? null,
        fuel_group: fuelGroup(r.fuel_type),
        fuel: label(r, 'fuel_type') ?? '',
        name: label(r, 'project_name') ?? label(r, 'queue_id') ?? '',
        id: label(r, 'queue_id') ?? '',
        iso: label(r, 'iso') ?? '',
        state: label(r, 'state') ?? '',
        status: label(r, 'queue_status') ?? '',
        ttp: field(r, 'estimated_ttp_months') ?? null,
        location: r.coordinate_precision === 'county_centroid' ? 'County centroid' : 'Point of interconnection',
      });
  }
  return { points, noCoords, offMap };
}

/** The projects' layer: sized by MW, coloured by fuel, a diamond for a county centroid; selectable. */
const projectsLayer = (points: Record<string, unknown>[], ink: string): VegaLiteSpec =>
  selectablePoints(
    {
      data: { values: points },
      // A project without a capacity is drawn too (Vega-Lite would leave it out), at the smallest size.
      mark: { type: 'point', filled: true, opacity: 0.7, strokeWidth: 0.5, invalid: null },
      encoding: {
        longitude: { field: 'lon', type: 'quantitative' },
        latitude: { field: 'lat', type: 'quantitative' },
        size: {
          condition: { test: '!isValid(datum.mw)', value: 8 },
          field: 'mw',
          type: 'quantitative',
          title: 'Capacity (MW)',
          scale: { range: [8, 360] },
        },
        color: fuelColor(),
        shape: {
          field: 'location',
          type: 'nominal',
          title: 'Location',
          scale: { domain: ['Point of interconnection', 'County centroid'], range: ['circle', 'diamond'] },
        },
        tooltip: [
          { field: 'name', title: 'Project' },
          { field: 'id', title: 'Queue ID' },
          { field: 'iso', title: 'ISO' },
          { field: 'state', title: 'State' },
          { field: 'fuel', title: 'Fuel' },
          { field: 'mw', title: 'Capacity (MW)', format: ',.1f' },
          { field: 'status', title: 'Status' },
          { field: 'ttp', title: 'Est. time to power (months)', format: '.1f' },
          { field: 'location', title: 'Location' },
        ],
      },
    },
    ink,
  );

/** The survivors over US state outlines: sized by MW, coloured by fuel, county centroids told apart. */
export async function queueMap(d: ChartData, layout: ChartLayout = {}): Promise<VegaLiteSpec> {
  const { points, noCoords, offMap } = mapPoints(d.rows);
  const noMw = points.filter((p) => p.mw === null).length;
  const notes = [
    ...omittedNote(noCoords, d.rows.length, 'projects have no coordinates'),
    ...omittedNote(offMap, d.rows.length, 'projects lie outside the map (territories)'),
    ...(noMw
      ? [
          `${noMw.toLocaleString('en-US')} of ${d.rows.length.toLocaleString('en-US')} projects have no capacity (drawn smallest).`,
        ]
      : []),
  ];
  const size = mapSize(layout, MAP_SIZE);
  const view: VegaLiteSpec = {
    ...size,
    projection: { type: 'albersUsa' },
    layer: [await outlinesLayer('states', layout.theme), projectsLayer(points, inkColor(layout.theme))],
  };
  return chartSpec({
    title: 'Interconnection-queue projects',
    subtitle: `${points.length.toLocaleString('en-US')} projects, sized by capacity, coloured by fuel`,
    description: `Map of ${points.length} interconnection-queue projects over US state outlines; circle size is capacity in MW, colour the fuel group, a diamond marks a county-centroid location.`,
    view,
    width: size.width,
    ctx: d,
    layout,
    notes,
    facts: {
      chart: 'queue_map',
      rows: d.rows.length,
      drawn: points.length,
      omitted: { no_coordinates: noCoords, outside_map: offMap },
    },
  });
}

export const QUEUE_MIX_TITLE = 'Queued capacity by ISO and fuel';
export const QUEUE_MW_TITLE = 'Queued capacity (MW)';
const round1 = (n: number) => Math.round(n * 10) / 10;

/** MW and projects per ISO and fuel group (core's `fuelGroup`); projects without a capacity are counted apart. */
export function queueMixTotals(rows: ChartData['rows']): {
  totals: Array<{ iso: string; fuel_group: FuelGroup; mw: number; projects: number }>;
  noMw: number;
} {
  const sums = new Map<string, { iso: string; fuel_group: FuelGroup; mw: number; projects: number }>();
  let noMw = 0;
  for (const r of rows) {
    const mw = field(r, 'capacity_mw', 'capacity');
    if (mw === undefined) {
      noMw++;
      continue;
    }
    const iso = label(r, 'iso') ?? 'Unknown';
    const g = fuelGroup(r.fuel_type);
    const k = `${iso}\u0000${g}`;
    const cur = sums.get(k) ?? { iso, fuel_group: g, mw: 0, projects: 0 };
    cur.mw += mw;
    cur.projects++;
    sums.set(k, cur);
  }
  return { totals: [...sums.values()].map((v) => ({ ...v, mw: round1(v.mw) })), noMw };
}

/** The queue mix as a table: one row per ISO (most MW first), one MW column per fuel group present. */
export function queueMixSummary(d: ChartData): ChartSummary {
  const { totals, noMw } = queueMixTotals(d.rows);
  const groups = FUEL_GROUPS.filter((g) => totals.some((t) => t.fuel_group === g));
  const byIso = new Map<string, number>();
  for (const t of totals) byIso.set(t.iso, (byIso.get(t.iso) ?? 0) + t.mw);
  const isos = [...byIso.keys()].sort((a, b) => byIso.get(b)! - byIso.get(a)! || a.localeCompare(b));
  const mw = (iso: string, g: FuelGroup) => totals.find((t) => t.iso === iso && t.fuel_group === g)?.mw ?? 0;
  return {
    chart: 'queue_mix',
    title: QUEUE_MIX_TITLE,
    categoryTitle: 'ISO',
    valueTitle: QUEUE_MW_TITLE,
    columns: ['ISO', ...groups],
    rows: isos.map((iso) => [iso, ...groups.map((g) => mw(iso, g))]),
    charted: 1 + groups.length,
    colors: groups.map(fuelGroupColor),
    stacked: true,
    notes: omittedNote(noMw, d.rows.length, 'projects have no capacity'),
  };
}

/** Queued MW by ISO and fuel group, as stacked bars. */
export function queueMix(d: ChartData, layout: ChartLayout = {}): VegaLiteSpec {
  const { totals: values, noMw } = queueMixTotals(d.rows);
  const width = plotWidth(layout, 480, NUMBER_GUTTER);
  const view: VegaLiteSpec = {
    width,
    height: 300,
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      // Upright ISO names while each has room; slanted when narrow, never cut.
      x: { field: 'iso', type: 'nominal', title: 'ISO', sort: '-y', axis: { labelAngle: width / 12 >= 48 ? 0 : -45 } },
      y: { aggregate: 'sum', field: 'mw', type: 'quantitative', title: QUEUE_MW_TITLE, axis: { format: ',.0f' } },
      color: fuelColor(),
      order: { field: 'fuel_rank', type: 'quantitative' },
      tooltip: [
        { field: 'iso', title: 'ISO' },
        { field: 'fuel_group', title: 'Fuel' },
        { field: 'mw', title: 'Capacity (MW)', format: ',.1f' },
        { field: 'projects', title: 'Projects' },
      ],
    },
    transform: [{ calculate: `indexof(${JSON.stringify(FUEL_GROUPS)}, datum.fuel_group)`, as: 'fuel_rank' }],
  };
  return chartSpec({
    title: QUEUE_MIX_TITLE,
    description: `Stacked bars of interconnection-queue capacity in MW for each ISO, split by fuel group, over ${d.rows.length - noMw} projects.`,
    view,
    width,
    ctx: d,
    layout,
    lacking: 'projects have no capacity',
    facts: { chart: 'queue_mix', rows: d.rows.length, drawn: values.length, omitted: { no_capacity: noMw } },
  });
}

/** A horizontal bar of months per category, with the user's limit as a rule. */
export function monthsBars(opts: {
  values: Record<string, unknown>[];
  category: { field: string; title: string };
  months: { field: string; title: string };
  color?: Record<string, unknown>;
  limit?: number;
  tooltip: Record<string, unknown>[];
  /** The plot's width (see plotWidth) and the rule's colour. */
  width?: number;
  ink?: string;
}): VegaLiteSpec {
  const bars: VegaLiteSpec = {
    mark: { type: 'bar' },
    encoding: {
      y: { field: opts.category.field, type: 'nominal', title: opts.category.title, sort: '-x' },
      x: { field: opts.months.field, type: 'quantitative', title: opts.months.title },
      ...(opts.color ? { color: opts.color } : { color: { value: SCORE_COLOR } }),
      tooltip: opts.tooltip,
    },
  };
  const rule: VegaLiteSpec | undefined =
    opts.limit === undefined
      ? undefined
      : {
          data: { values: [{ limit: opts.limit, what: 'your max_ttp_months' }] },
          mark: { type: 'rule', color: opts.ink ?? '#000000', strokeDash: [4, 3], strokeWidth: 1.5 },
          encoding: {
            x: { field: 'limit', type: 'quantitative' },
            tooltip: [
              { field: 'what', title: 'Rule' },
              { field: 'limit', title: 'Months' },
            ],
          },
        };
  return {
    width: opts.width ?? 480,
    height: Math.max(120, 18 * opts.values.length),
    data: { values: opts.values },
    layer: rule ? [bars, rule] : [bars],
  };
}

/** Median estimated months to power per ISO of the survivors, against `maxTtpMonths`. */
export function queueTimeToPower(d: ChartData, opts: { maxTtpMonths?: number } & ChartLayout = {}): VegaLiteSpec {
  const width = plotWidth(opts, 480, NUMBER_GUTTER, false);
  const byIso = new Map<string, number[]>();
  let missing = 0;
  for (const r of d.rows) {
    const m = field(r, 'estimated_ttp_months');
    if (m === undefined) {
      missing++;
      continue;
    }
    const iso = label(r, 'iso') ?? 'Unknown';
    byIso.set(iso, [...(byIso.get(iso) ?? []), m]);
  }
  const values = [...byIso.entries()].map(([iso, ms]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    return { iso, months: Math.round(median * 10) / 10, projects: ms.length };
  });
  const view = monthsBars({
    values,
    category: { field: 'iso', title: 'ISO' },
    months: { field: 'months', title: 'Median estimated time to power (months)' },
    limit: opts.maxTtpMonths,
    width,
    ink: inkColor(opts.theme),
    tooltip: [
      { field: 'iso', title: 'ISO' },
      { field: 'months', title: 'Median months' },
      { field: 'projects', title: 'Projects' },
    ],
  });
  return chartSpec({
    title: 'Time to power by ISO',
    description: `Median estimated months to power of the queue projects in each ISO${opts.maxTtpMonths !== undefined ? `, with a rule at your limit of ${opts.maxTtpMonths} months` : ''}.`,
    view,
    width,
    ctx: d,
    layout: opts,
    lacking: 'projects have no time-to-power estimate',
    facts: {
      chart: 'queue_time_to_power',
      rows: d.rows.length,
      drawn: values.length,
      omitted: { no_estimate: missing },
    },
  });
}
