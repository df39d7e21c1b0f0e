// Browser entry for `npm run bench`, loaded into a running JupyterLab with the extension installed:
// the queue view's map from data arrival (the answer's text) to the first painted map, as the panel
// draws it — its own queue view, chart switch and chart renderer, taken from the running app — split
// into our part (parse, shape, the rows as records, core's spec, the selection bridge) and the
// renderer's (JupyterLab's Vega-Lite renderer: Vega-Lite compile, Vega parse and dataflow, the SVG),
// then the browser's style, layout and paint up to the next frame. Beside it, the same spec drawn
// as a notebook output is drawn (the renderer's PNG step included), and a selection written on the
// drawn map (what a grid selection costs).
import { POINT_SELECTION, selectionStore, type VegaLiteSpec } from '@dchub/core/charts';
import type { QueueResultT } from '@dchub/core';
import { VEGA_LITE_MIME } from '@dchub/core/charts';
import type { RenderedChart } from '../src/chartRenderer';
import type { ChartSwitch } from '../src/chartSwitch';
import { lazyQueueTable } from '../src/lazyTable';
import type { TableModel } from '../src/tableModel';

interface Galata {
  getPlugin(id: string): Promise<unknown>;
}
interface Charts {
  render(spec: VegaLiteSpec, into: unknown): Promise<RenderedChart>;
}
interface Dchub {
  section(kind: string): { model: TableModel; charts: ChartSwitch; view: unknown } | undefined;
  showView(view: unknown): void;
}
interface Registry {
  createRenderer(mime: string): { node: HTMLElement; renderModel(model: unknown): Promise<void>; dispose(): void };
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export interface MapRun {
  rows: number;
  drawn: number;
  parse_ms: number;
  /**
   * What runs as the data arrives: the panel's table (rows shaped when read) into the grid's model, the shown rows as
   * records, core's points.
   */
  table_ms: number;
  /** The rest of core's spec (the US outlines, the footer), the renderer's model, the selection bridge. */
  spec_ms: number;
  /**
   * JupyterLab's renderer: createRenderer and renderModel (vega-embed: Vega-Lite compile, Vega parse, dataflow, SVG).
   */
  renderer_ms: number;
  ours_ms: number;
  /** Style, layout and paint of the SVG, up to the next frame. */
  paint_ms: number;
  total_ms: number;
  svg_points: number;
  spec_kb: number;
  /** The same spec as a notebook output draws it: the renderer's default canvas, and its PNG step. */
  notebook_renderer_ms: number;
  /** Writing one row's selection into the drawn map (its 5,370 points encoded again, the SVG updated). */
  select_ms: number;
}

async function plugins() {
  const galata = (window as unknown as { galata: Galata }).galata;
  const dchub = (await galata.getPlugin('@dchub/jupyterlab:plugin')) as Dchub;
  const charts = (await galata.getPlugin('@dchub/jupyterlab:charts')) as Charts;
  const registry = (await galata.getPlugin('@jupyterlab/rendermime-extension:plugin')) as Registry;
  const queue = dchub.section('queue');
  if (!queue) throw new Error('the DC Hub queue view is not there');
  return { dchub, charts, registry, queue };
}

/** Data arrival → first painted map, in the panel's queue view (its map shown before the data comes). */
async function map(text: string): Promise<MapRun> {
  const { dchub, charts, registry, queue } = await plugins();
  dchub.showView(queue.view);
  queue.model.setTable(null);
  await queue.charts.show('map');
  // The renderer's share: the time inside the chart renderer's render().
  let renderer = 0;
  let spec: VegaLiteSpec | null = null;
  let rendered: RenderedChart | null = null;
  const render = charts.render.bind(charts);
  charts.render = async (s, into) => {
    const t = performance.now();
    spec = s;
    try {
      return (rendered = await render(s, into));
    } finally {
      renderer = performance.now() - t;
    }
  };
  try {
    const t0 = performance.now();
    const answer = JSON.parse(text) as QueueResultT;
    const t1 = performance.now();
    // The map is shown: new data starts its drawing at once.
    queue.model.setTable(lazyQueueTable(answer));
    const t2 = performance.now();
    await queue.charts.drawing;
    const t3 = performance.now();
    await nextFrame();
    const t4 = performance.now();
    const area = queue.charts.area.node;
    const svgPoints = area.querySelectorAll(`g.${POINT_SELECTION.unit}_marks > path`).length;
    const drawnSpec = spec as VegaLiteSpec | null;
    if (!drawnSpec || !rendered) throw new Error('the map was not drawn');

    // The same spec as a notebook output: no PNG given, so the renderer makes one.
    const host = document.createElement('div');
    document.body.append(host);
    const nb = registry.createRenderer(VEGA_LITE_MIME);
    host.append(nb.node);
    const model = {
      data: { [VEGA_LITE_MIME]: drawnSpec },
      metadata: { [VEGA_LITE_MIME]: { embed_options: { actions: false } } },
      trusted: true,
      setData() {}
    };
    const t5 = performance.now();
    await nb.renderModel(model);
    const t6 = performance.now();
    nb.dispose();
    host.remove();

    // A selection of one row written into the drawn map.
    const view = (rendered as RenderedChart).view;
    const t7 = performance.now();
    if (view) await view.data(POINT_SELECTION.store, selectionStore([0])).runAsync();
    const t8 = performance.now();
    if (view) await view.data(POINT_SELECTION.store, []).runAsync();

    return {
      rows: answer.results.length,
      drawn: Number(area.dataset.drawn),
      parse_ms: t1 - t0,
      table_ms: t2 - t1,
      spec_ms: t3 - t2 - renderer,
      renderer_ms: renderer,
      ours_ms: t3 - t0 - renderer,
      paint_ms: t4 - t3,
      total_ms: t4 - t0,
      svg_points: svgPoints,
      spec_kb: JSON.stringify(drawnSpec).length / 1024,
      notebook_renderer_ms: t6 - t5,
      select_ms: view ? t8 - t7 : Number.NaN
    };
  } finally {
    charts.render = render;
  }
}

(window as unknown as { mapBench: unknown }).mapBench = { map };
