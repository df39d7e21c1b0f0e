import { VEGA_LITE_MIME, type VegaLiteSpec } from '@dchub/core/charts';
import { MimeModel, type IRenderMimeRegistry } from '@jupyterlab/rendermime';
import type { ReadonlyPartialJSONObject } from '@lumino/coreutils';
import type { Panel, Widget } from '@lumino/widgets';

/** What the panel uses of the Vega view a chart is drawn with (a structural type: no vega in our bundle). */
export interface VegaView {
  addSignalListener(name: string, handler: (name: string, value: unknown) => void): unknown;
  removeSignalListener(name: string, handler: (name: string, value: unknown) => void): unknown;
  signal(name: string): unknown;
  data(name: string, values: object[]): VegaView;
  runAsync(): Promise<unknown>;
}

/** A chart drawn into the panel: the renderer's widget, and its Vega view when it can be reached. */
export interface RenderedChart {
  widget: Widget;
  view: VegaView | null;
}

/**
 * Options of vega-embed (JupyterLab reads them from the model's metadata): no online actions; SVG, whose marks tests
 * count.
 */
export const EMBED_OPTIONS = { actions: false, renderer: 'svg' } as const;

/**
 * The renderer adds a PNG of the chart to the model for saved notebooks unless one is there; a
 * panel's chart is never saved, so a 1×1 placeholder spares rasterizing thousands of points again.
 */
const NO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** The model JupyterLab's Vega-Lite renderer draws: core's spec, the embed options, trusted (our own data). */
export function chartModel(spec: VegaLiteSpec): MimeModel {
  return new MimeModel({
    data: { [VEGA_LITE_MIME]: spec as ReadonlyPartialJSONObject, 'image/png': NO_PNG },
    metadata: { [VEGA_LITE_MIME]: { embed_options: { ...EMBED_OPTIONS } } },
    trusted: true
  });
}

/**
 * The Vega view of a rendered chart. JupyterLab's vega5 renderer keeps vega-embed's result (`view`
 * among it) in a private field and offers no accessor; it is read only if it has the shape of a
 * view, so a renderer without it still draws, and only the map↔grid selection is off.
 */
export function viewOf(renderer: Widget): VegaView | null {
  const view = (renderer as unknown as { _result?: { view?: Partial<VegaView> } })._result?.view;
  return view &&
    typeof view.addSignalListener === 'function' &&
    typeof view.data === 'function' &&
    typeof view.runAsync === 'function'
    ? (view as VegaView)
    : null;
}

/**
 * Draws DC Hub charts with JupyterLab's own Vega-Lite renderer, through the rendermime registry
 * (as the debugger and the inspector render MIME bundles): no second copy of Vega in our bundle.
 */
export class ChartRenderer {
  constructor(private readonly _rendermime: IRenderMimeRegistry) {}

  /** Whether the registry renders Vega-Lite 5 (the vega5 extension may be disabled). */
  get available(): boolean {
    return this._rendermime.mimeTypes.includes(VEGA_LITE_MIME);
  }

  /** Draws `spec` in a new renderer widget added to `into`; resolves once it is drawn. */
  async render(spec: VegaLiteSpec, into: Panel): Promise<RenderedChart> {
    const renderer = this._rendermime.createRenderer(VEGA_LITE_MIME);
    renderer.addClass('jp-DCHub-chart-render');
    into.addWidget(renderer);
    await renderer.renderModel(chartModel(spec));
    return { widget: renderer, view: viewOf(renderer) };
  }
}
