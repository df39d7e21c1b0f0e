/** A Vega-Lite object, as spec.ts's VegaLiteSpec (not imported: spec.ts imports this module). */
type VegaLiteSpec = Record<string, unknown>;

/**
 * How a host lays a chart out: the width it gives (the whole chart: axes, legends and footer
 * included) and its theme's colours. Core builds the spec for them; hosts rewrite nothing. Without
 * a theme the chart sets no text colour (the renderer's theme decides: JupyterLab's light or dark
 * Vega theme in a notebook) and draws the maps' land in a grey that reads on either.
 */
export interface ChartLayout {
  /** Pixels the chart may take; under NARROW the legends go below the chart. Default: each chart's own width. */
  width?: number;
  theme?: ChartTheme;
}

/** A host theme's colours (CSS colours), read from JupyterLab's `--jp-*` variables or Office's theme. */
export interface ChartTheme {
  background: string;
  /** Titles, labels, the footer. */
  text: string;
  /** Subtitles, axis labels. */
  muted: string;
  /** Axis lines and ticks; the rules drawn over data (your limit) and the selected points' outline. */
  axis: string;
  grid: string;
  /** The maps' land and the borders between states or countries. */
  land: string;
  border: string;
  font?: string;
}

/** Office's and JupyterLab's light themes, near enough: the default a host may start from. */
export const LIGHT_THEME: ChartTheme = Object.freeze({
  background: '#ffffff',
  text: '#212121',
  muted: '#424242',
  axis: '#616161',
  grid: '#e0e0e0',
  land: '#eeeeee',
  border: '#ffffff',
});

/** A dark theme: light text on near-black, land a step above the background. */
export const DARK_THEME: ChartTheme = Object.freeze({
  background: '#111111',
  text: '#e0e0e0',
  muted: '#bdbdbd',
  axis: '#9e9e9e',
  grid: '#3a3a3a',
  land: '#333333',
  border: '#111111',
});

/** Room on the left for a category axis (labels up to the config's 130 px, its title) and for a numeric one. */
export const CATEGORY_GUTTER = 165;
export const NUMBER_GUTTER = 70;

/** Below this width (px) the legends go under the chart, and subtitles wrap. */
export const NARROW = 640;
/** What a legend beside a chart takes (symbol, label limit, padding). */
const LEGEND_BESIDE = 170;
/** The chart's own padding and a little air either side. */
const PADDING = 24;

/** Words of `text` in lines of at most `max` characters (a longer word stands alone); every word kept. */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Characters of text of `fontSize` px that fit `width` px (an average glyph is about 0.56 em). */
export const charsIn = (width: number, fontSize: number): number => Math.max(12, Math.floor(width / (fontSize * 0.56)));

/**
 * The width of a chart's plot: its own `natural` width when the host gives none or more room, else
 * what is left of the host's width after the axis on the left (`gutter`) and, when not narrow, the
 * legends beside.
 */
export function plotWidth(layout: ChartLayout | undefined, natural: number, gutter: number, legend = true): number {
  const width = layout?.width;
  if (!width || !Number.isFinite(width)) return natural;
  const beside = legend && width >= NARROW ? LEGEND_BESIDE : 0;
  return Math.max(120, Math.min(natural, Math.floor(width - gutter - beside - PADDING)));
}

/** A map's width and height for the layout: as wide as the room allows, its height in proportion. */
export function mapSize(layout: ChartLayout | undefined, natural: { width: number; height: number }) {
  const width = plotWidth(layout, natural.width, 0);
  return { width, height: Math.round((natural.height * width) / natural.width) };
}

/** The maps' land and borders: the theme's, else a grey that reads on light and dark backgrounds. */
export const landStyle = (theme: ChartTheme | undefined): Record<string, unknown> =>
  theme
    ? { fill: theme.land, stroke: theme.border, strokeWidth: 0.7 }
    : { fill: '#8c8c8c', fillOpacity: 0.25, stroke: '#8c8c8c', strokeOpacity: 0.6, strokeWidth: 0.5 };

/** The colour of rules and outlines drawn over the data: the theme's axis colour, else black. */
export const inkColor = (theme: ChartTheme | undefined): string => theme?.axis ?? '#000000';

/** The spec's `config` and `background` for the layout: the theme's colours, the legends' place. */
export function layoutConfig(layout: ChartLayout | undefined): { config: VegaLiteSpec; background?: string } {
  const t = layout?.theme;
  const narrow = !!layout?.width && layout.width < NARROW;
  const legend = narrow
    ? { orient: 'bottom', direction: 'vertical', columns: 1, labelLimit: 200 }
    : { orient: 'right', labelLimit: 160 };
  const axisColors = t
    ? { domainColor: t.axis, tickColor: t.axis, gridColor: t.grid, labelColor: t.muted, titleColor: t.text }
    : {};
  const colors: VegaLiteSpec = t
    ? {
        title: { color: t.text, subtitleColor: t.muted },
        legend: { ...legend, labelColor: t.muted, titleColor: t.text },
        text: { color: t.text },
        ...(t.font ? { font: t.font } : {}),
      }
    : { legend };
  return {
    config: { view: { stroke: null }, concat: { spacing: 8 }, ...colors, axis: { labelLimit: 130, ...axisColors } },
    ...(t ? { background: t.background } : {}),
  };
}
