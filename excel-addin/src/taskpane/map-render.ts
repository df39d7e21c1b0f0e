/**
 * Draws a chart of core (its Vega-Lite 5 specification, built here) in the pane with vega-embed,
 * Vega 5.33 and Vega-Lite 5.6.1 — the versions JupyterLab 4 renders, so a map looks the same in
 * both. This module is an entry of its own (map.js, with its own webpack runtime, exposed as
 * `window.DchubMap`) that the pane loads when the Map tab first opens: functions.js carries
 * neither Vega nor even the names of its chunks, and the pane's first load does not wait for it.
 *
 * Expressions run through vega-interpreter (`ast: true`), never `new Function`: the map works
 * where the pane is served under a Content-Security-Policy without 'unsafe-eval'. No embed
 * actions (the "Open in Vega Editor" action goes online); tooltips on.
 */
import embed, { type Result } from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { buildChart, type ChartData, type ChartFacts, type VegaLiteSpec } from '@dchub/core/charts';

let current: Result | undefined;

/** Words of `text` in lines of at most `max` characters (a longer word stands alone). */
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

/** The footer view (text lines under the chart) with its lines wrapped to the pane: every word kept, none cut. */
function wrapFooter(v: VegaLiteSpec, width: number): VegaLiteSpec {
  const values = (v.data as { values?: Array<{ text?: unknown }> } | undefined)?.values;
  if ((v.mark as { type?: string } | undefined)?.type !== 'text' || !Array.isArray(values)) return v;
  const lines = values.flatMap((d) => wrapText(typeof d.text === 'string' ? d.text : '', Math.floor(width / 5.6))); // 10 px text: about 5.6 px a character
  return { ...v, data: { values: lines.map((text, i) => ({ i, text })) }, height: 14 * lines.length };
}

/**
 * The spec laid out for a task pane: the views as wide as the pane (a map's height in proportion),
 * the footer's lines wrapped, the legends under the map in one column each. Nothing drawn changes.
 */
export function fitToPane(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  const views = (spec.vconcat as VegaLiteSpec[] | undefined) ?? [];
  const fit = (v: VegaLiteSpec): VegaLiteSpec => {
    if (typeof v.width !== 'number' || v.width <= width) return wrapFooter(v, width);
    const scale = width / v.width;
    return wrapFooter({ ...v, width, ...(typeof v.height === 'number' && v.projection ? { height: Math.round(v.height * scale) } : {}) }, width);
  };
  const config = (spec.config ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    vconcat: views.map(fit),
    config: { ...config, legend: { ...((config.legend as object) ?? {}), orient: 'bottom', direction: 'vertical', columns: 1 } },
  };
}

/** Builds core's chart `name` of `data` and draws it into `el`; what it drew and left out. */
export async function drawChart(el: HTMLElement, name: string, data: ChartData): Promise<ChartFacts> {
  const spec = await buildChart(name, data);
  await renderChart(el, spec);
  return (spec.usermeta as { dchub: ChartFacts }).dchub;
}

/** Renders `spec` into `el` (replacing what was drawn before) as SVG. */
export async function renderChart(el: HTMLElement, spec: VegaLiteSpec, width = el.clientWidth): Promise<void> {
  current?.finalize();
  current = undefined;
  // vega-embed styles its element (inline-block, as wide as the chart): a child of ours, so the pane keeps its width.
  const target = document.createElement('div');
  el.replaceChildren(target);
  current = await embed(target, fitToPane(spec, Math.max(240, width - 24)), {
    actions: false,
    renderer: 'svg',
    ast: true,
    expr: expressionInterpreter,
    tooltip: true,
    mode: 'vega-lite',
  });
}
