import { staleText } from '../notes.js';
import { countLines, subtitleOf } from './counts.js';
import { charsIn, layoutConfig, NARROW, wrapText, type ChartLayout } from './layout.js';

/**
 * What every DC Hub chart is: a Vega-Lite v5 specification (the version JupyterLab 4 renders
 * offline; features of Vega-Lite 5.6.1 only), data inline, a title and a description, axis titles
 * with units, a tooltip per mark, and a footer with the data's time, its citation and what was
 * left out. `usermeta.dchub` says what was drawn, for hosts and tests.
 */
export type VegaLiteSpec = Record<string, unknown>;

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
export const VEGA_LITE_MIME = 'application/vnd.vegalite.v5+json';

/** Where the data came from and how: the answer's time, citation, preview and cache facts. */
export interface ChartContext {
  /** The data's time (ISO text). */
  asOf?: string | null;
  citation?: string | null;
  /** A gated preview: rows shown of how many. */
  preview?: { shown?: number | null; total?: number | null } | null;
  /** Rows that matched the call (a queue's `count_total_matching`); more than the rows: the call's limit cut them. */
  matching?: number | null;
  /** A stale answer: its age and why. */
  stale?: { ageMs: number; reason?: string | null } | null;
  /**
   * Lines the host already worded about the data (a spilled table's closing rows: its preview, its age), shown as they
   * are.
   */
  notes?: readonly string[] | null;
}

/** Rows of an answer (records) with their context. */
export interface ChartData extends ChartContext {
  rows: readonly Record<string, unknown>[];
}

/**
 * A chart's numbers as a small table, for a host that draws the chart natively (Excel): the
 * category first, one column per series, then columns shown but not charted (a verdict). Worded
 * and computed here, so that a native chart and the Vega-Lite one say the same.
 */
export interface ChartSummary {
  chart: string;
  title: string;
  /** Axis titles, with units. */
  categoryTitle: string;
  valueTitle: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  /** How many leading columns are charted: the category and the series. */
  charted: number;
  /** One colour per series, in column order, with the meaning it has in every chart. */
  colors: string[];
  /** Stacked series (their sum is the bar) or side by side. */
  stacked: boolean;
  /** A fixed value axis (scores are 0–100). */
  valueRange?: [number, number];
  /** What was left out and why, as in the Vega-Lite chart's footer. */
  notes: string[];
  /** What part of the whole it shows, as the Vega-Lite chart's subtitle says it (none for a whole answer). */
  subtitle?: string[];
}

/** What a chart drew and left out, kept in `usermeta.dchub`. */
export interface ChartFacts {
  chart: string;
  /** Rows given. */
  rows: number;
  /** Marks drawn (points, bars). */
  drawn: number;
  /** Rows left out, by reason. */
  omitted: Record<string, number>;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** A finite number from a value (numeric text read as a number), else undefined. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** The first of `names` a row has as a number. */
export function field(row: Record<string, unknown>, ...names: string[]): number | undefined {
  for (const n of names) {
    const v = numberOf(row[n]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The first of `names` a row has as non-blank text. */
export function label(row: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = row[n];
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** An ISO time for people: the date alone at midnight UTC, else the date and the UTC time to the minute. */
export function timeText(iso: string): string {
  const at = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) || iso.length <= 10 ? iso : `${iso}Z`);
  if (!Number.isFinite(at)) return iso;
  const d = new Date(at).toISOString();
  return d.slice(11, 19) === '00:00:00' ? d.slice(0, 10) : `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}

/** The lines under a chart: what was left out and why, a preview, a stale answer, the data's time, the citation. */
export function footerLines(ctx: ChartContext, notes: readonly string[]): string[] {
  const lines = [...notes, ...(ctx.notes ?? [])];
  const p = ctx.preview;
  if (p)
    lines.push(
      `Gated preview: ${p.shown != null ? fmt(p.shown) : 'some'}${p.total != null ? ` of ${fmt(p.total)}` : ''} rows shown.`,
    );
  if (ctx.stale) lines.push(staleText(ctx.stale.ageMs, ctx.stale.reason || undefined));
  const source = [ctx.asOf ? `Data as of ${timeText(ctx.asOf)}` : undefined, ctx.citation ?? undefined]
    .filter(Boolean)
    .join(' · ');
  if (source) lines.push(source);
  return lines;
}

/** "12 of 40 rows have no X (not drawn)." — or nothing when none was left out. */
export function omittedNote(count: number, of: number, what: string): string[] {
  return count > 0 ? [`${fmt(count)} of ${fmt(of)} ${what} (not drawn).`] : [];
}

/** The footer as a text view under the chart (Vega-Lite has one title per view), its lines wrapped to `width`. */
function footerView(lines: readonly string[], width: number, layout: ChartLayout | undefined): VegaLiteSpec {
  // Every word is kept: a citation is read whole, wrapped rather than cut or run past the chart.
  const wrapped = lines.flatMap((line) => wrapText(line, charsIn(width, 10)));
  const color = layout?.theme ? { color: layout.theme.text } : {};
  return {
    data: { values: wrapped.map((text, i) => ({ i, text })) },
    mark: { type: 'text', align: 'left', baseline: 'top', fontSize: 10, ...color },
    encoding: {
      y: { field: 'i', type: 'ordinal', axis: null },
      x: { value: 0 },
      text: { field: 'text', type: 'nominal' },
    },
    width,
    height: Math.max(14, 14 * wrapped.length),
  };
}

/**
 * A whole chart: the title and description (for screen readers), the main view, the footer under
 * it, and what was drawn in `usermeta.dchub`.
 */
export function chartSpec(opts: {
  title: string;
  subtitle?: string;
  description: string;
  view: VegaLiteSpec;
  width: number;
  ctx: ChartContext;
  /** The host's width and theme (see ChartLayout). */
  layout?: ChartLayout;
  /** Lines under the chart (what was left out, and why). */
  notes?: readonly string[];
  /**
   * What the rows `facts.omitted` counts lack, for the line that says so ("12 of 40 markets have no
   * coordinates (not drawn)."): in place of `notes` when one reason left rows out.
   */
  lacking?: string;
  facts: ChartFacts;
}): VegaLiteSpec {
  const { facts, lacking, layout } = opts;
  const omitted = Object.values(facts.omitted).reduce((a, b) => a + b, 0);
  const lines = footerLines(opts.ctx, opts.notes ?? (lacking ? omittedNote(omitted, facts.rows, lacking) : []));
  // The footer and the subtitle wrap to the room the host gives (or to the chart's own width).
  const room = layout?.width ? Math.max(160, layout.width - 24) : Math.max(opts.width, 320);
  const narrow = !!layout?.width && layout.width < NARROW;
  // The counts ("N of M") and the chart's own subtitle, each line wrapped when narrow.
  const sub = subtitleOf(countLines(facts.chart, opts.ctx, facts.rows), opts.subtitle);
  const subLines = sub === undefined ? [] : Array.isArray(sub) ? sub : [sub];
  const wrapped = narrow ? subLines.flatMap((l) => wrapText(l, charsIn(room, 11))) : subLines;
  const subtitle = wrapped.length > 1 ? wrapped : wrapped[0];
  const { config, background } = layoutConfig(layout);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: opts.title, subtitle, anchor: 'start' },
    description: opts.description,
    ...(background ? { background } : {}),
    vconcat: lines.length ? [opts.view, footerView(lines, room, layout)] : [opts.view],
    // The footer shares nothing with the chart above it; the legends stay with the chart.
    resolve: {
      scale: { x: 'independent', y: 'independent' },
      axis: { x: 'independent', y: 'independent' },
      legend: { color: 'independent', size: 'independent', shape: 'independent' },
    },
    config,
    usermeta: { dchub: facts },
  };
}
