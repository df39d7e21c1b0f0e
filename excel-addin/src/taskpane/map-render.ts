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
import { buildChart, type ChartData, type ChartFacts, type ChartTheme, type VegaLiteSpec } from '@dchub/core/charts';

let current: Result | undefined;

/**
 * Builds core's chart `name` of `data` for the pane (as wide as `el`, in the pane's theme: core lays it out, legends
 * under the chart) and draws it into `el`; what it drew and left out.
 */
export async function drawChart(
  el: HTMLElement,
  name: string,
  data: ChartData,
  theme?: ChartTheme,
): Promise<ChartFacts> {
  const spec = await buildChart(name, data, { width: Math.max(240, el.clientWidth), theme });
  await renderChart(el, spec);
  return (spec.usermeta as { dchub: ChartFacts }).dchub;
}

/** Renders `spec` into `el` (replacing what was drawn before) as SVG. */
export async function renderChart(el: HTMLElement, spec: VegaLiteSpec): Promise<void> {
  current?.finalize();
  current = undefined;
  // vega-embed styles its element (inline-block, as wide as the chart): a child of ours, so the pane keeps its width.
  const target = document.createElement('div');
  el.replaceChildren(target);
  current = await embed(target, spec, {
    actions: false,
    renderer: 'svg',
    ast: true,
    expr: expressionInterpreter,
    tooltip: true,
    mode: 'vega-lite',
  });
}
