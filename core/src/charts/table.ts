import type { VegaLiteSpec } from './spec.js';

/** The numbers behind a chart as a table: a chart's text alternative, for a host to show beside it. */
export interface ChartTable {
  /** The chart's title, for the table's caption. */
  caption: string;
  /** Column titles, with units, as the tooltips name them. */
  columns: string[];
  rows: Array<Array<string | number | null>>;
}

interface Unit {
  data?: { values?: unknown };
  encoding?: { tooltip?: unknown };
  layer?: Unit[];
}

/** The units of a view (itself, or its layers) that draw inline rows with a tooltip. */
function units(
  view: Unit,
): Array<{ values: Record<string, unknown>[]; tooltip: Array<{ field: string; title?: string }> }> {
  const out: ReturnType<typeof units> = [];
  const visit = (u: Unit, inherited: unknown) => {
    const values = Array.isArray(u.data?.values) ? u.data.values : inherited;
    const tooltip = u.encoding?.tooltip;
    if (Array.isArray(values) && Array.isArray(tooltip) && tooltip.length)
      out.push({ values: values as Record<string, unknown>[], tooltip: tooltip as Array<{ field: string }> });
    for (const l of u.layer ?? []) visit(l, values);
  };
  visit(view, undefined);
  return out;
}

/**
 * The table of a chart built by core: the rows its main marks are drawn from (bars, points; the
 * rows a map places), one column per field its tooltip shows, titled as there. Rules and outlines
 * carry no rows of their own. Empty when nothing was drawn.
 */
export function chartTable(spec: VegaLiteSpec): ChartTable {
  const title = (spec.title as { text?: unknown } | undefined)?.text;
  const caption = typeof title === 'string' ? title : 'Chart data';
  const view = ((spec.vconcat as Unit[] | undefined) ?? [spec])[0] ?? {};
  const main = units(view).sort((a, b) => b.values.length - a.values.length)[0];
  if (!main) return { caption, columns: [], rows: [] };
  const cell = (v: unknown): string | number | null => {
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (v === null || v === undefined) return null;
    if (typeof v === 'string') return v;
    return typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? null);
  };
  return {
    caption,
    columns: main.tooltip.map((t) => t.title ?? t.field),
    rows: main.values.map((r) => main.tooltip.map((t) => cell(r[t.field]))),
  };
}
