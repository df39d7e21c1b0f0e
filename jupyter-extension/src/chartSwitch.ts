import { buildChart, SELECTABLE_CHARTS, type ChartFacts, type VegaLiteSpec } from '@dchub/core/charts';
import type { FetchMeta } from '@dchub/core';
import { Panel, type Widget } from '@lumino/widgets';
import { chartContext, sameRows, tableRecords, type ChartChoice, type ChartRows, type ChartSource } from './chartData';
import { dataTableFor, jupyterChartTheme } from './chartAlt';
import type { RenderedChart } from './chartRenderer';
import { button, div, hiddenDiv, select, type ShowMode, type ShowSwitch } from './dom';
import type { TableGrid } from './grid';
import { MapSelection } from './mapSelection';
import { chartCall } from './pycode';
import type { TableModel } from './tableModel';
import type { IDchubCharts } from './tokens';

export interface ChartSwitchOptions {
  /** The renderer (null when the charts plugin is off: the switch is not shown). */
  charts: IDchubCharts | null;
  choices: readonly ChartChoice[];
  source: ChartSource;
  /** What Table shows (a grid, or the site card), hidden while a chart is. */
  table: Widget | HTMLElement;
  /** The grid a map's selection follows, and whose filter and data a chart follows. */
  grid?: TableGrid;
  /** What the first button says (default "Table"). */
  tableLabel?: string;
}

/**
 * Table / Chart / Map for a view: the buttons (and a picker when there are several charts), and
 * the area the chart is drawn in by JupyterLab's Vega-Lite renderer — from the rows the view shows,
 * drawn again when they change. A map's points and the grid share one selection. The area's data
 * attributes (`data-chart`, `data-state`, `data-rows`, `data-drawn`) say what was drawn, for tests
 * and screen readers.
 */
export class ChartSwitch implements ShowSwitch {
  readonly bar: HTMLElement;
  readonly area = new Panel();
  private readonly _buttons = new Map<ShowMode, HTMLButtonElement>();
  private readonly _picker: HTMLSelectElement;
  private readonly _status = hiddenDiv('jp-DCHub-chart-status', '', 'status');
  private _mode: ShowMode = 'table';
  private readonly _chosen = new Map<'chart' | 'map', string>();
  private _drawn: { rendered: RenderedChart; rows: ChartRows; name: string; selection: MapSelection | null } | null =
    null;
  private _generation = 0;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  /** The draw under way: asked again for the same rows, it is awaited rather than started twice. */
  private _pending: { name: string; rows: ChartRows; promise: Promise<void> } | null = null;
  /** Whether the view offers its charts (JupyterLab renders Vega-Lite, and there are charts). */
  readonly offered: boolean;
  /** What the chart shown now drew (`usermeta.dchub`), or null. */
  facts: ChartFacts | null = null;

  constructor(private readonly _options: ChartSwitchOptions) {
    const { charts, choices } = _options;
    this.bar = div('jp-DCHub-chartbar');
    this.bar.setAttribute('role', 'group');
    this.bar.setAttribute('aria-label', 'Show as');
    this.area.addClass('jp-DCHub-chart');
    this.area.addClass('jp-DCHub-scroll-region');
    // A region a keyboard can reach and scroll (axe: scrollable-region-focusable), named by what it shows.
    this.area.node.tabIndex = 0;
    this.area.node.setAttribute('role', 'region');
    this.area.node.setAttribute('aria-label', 'Chart');
    this.area.node.setAttribute('aria-live', 'polite');
    this.area.node.append(this._status);
    this.area.hide();
    const modes: Array<[ShowMode, string]> = [['table', _options.tableLabel ?? 'Table']];
    if (choices.some((c) => c.kind === 'chart')) modes.push(['chart', 'Chart']);
    if (choices.some((c) => c.kind === 'map')) modes.push(['map', 'Map']);
    for (const [mode, label] of modes) {
      const b = button(`jp-DCHub-show jp-DCHub-show-${mode}`, label, () => void this.show(mode));
      b.dataset.mode = mode;
      this._buttons.set(mode, b);
      this.bar.append(b);
    }
    this._picker = select('chart', [], { className: 'jp-DCHub-input jp-DCHub-chart-pick' });
    this._picker.setAttribute('aria-label', 'Chart');
    this._picker.addEventListener('change', () => void this.show(this._mode, this._picker.value));
    this.bar.append(this._picker);
    // Without JupyterLab's Vega-Lite renderer (or charts for this view) there is only the table.
    this.offered = !!charts?.available && modes.length > 1;
    this.bar.hidden = !this.offered;
    this._showButtons();
    _options.grid?.model.changed.connect(() => this._onModelChanged(), this);
    // Sized to the room it has: drawn again when the view's width changes by more than a little.
    this._resize = new ResizeObserver(() => this._onResize());
    this._resize.observe(this.area.node);
  }

  private readonly _resize: ResizeObserver;
  private _width = 0;

  private _onResize(): void {
    const width = this.area.node.clientWidth;
    if (this._mode === 'table' || !width || Math.abs(width - this._width) < 24) return;
    clearTimeout(this._timer);
    this._timer = setTimeout(() => void this._draw(true), 200);
  }

  get mode(): ShowMode {
    return this._mode;
  }

  /** The chart shown now (null for the table). */
  get chart(): string | null {
    return this._mode === 'table' ? null : (this._chosen.get(this._mode) ?? this._choices(this._mode)[0]?.name ?? null);
  }

  /**
   * Shows the table, or a chart (`chart` names one of the mode's charts; the last chosen one
   * otherwise) drawn from the rows the view shows. Resolves once it is drawn.
   */
  async show(mode: ShowMode, chart?: string): Promise<void> {
    if (mode !== 'table' && (!this.offered || !this._choices(mode).length)) return;
    this._mode = mode;
    if (mode !== 'table' && chart && this._choices(mode).some((c) => c.name === chart)) this._chosen.set(mode, chart);
    this._showButtons();
    const table = this._options.table;
    if (table instanceof HTMLElement) table.hidden = mode !== 'table';
    else table.setHidden(mode !== 'table');
    this.area.setHidden(mode === 'table');
    if (mode !== 'table') return this._draw();
    // Back to the grid: its first selected row (maybe picked on the map) in view.
    const grid = this._options.grid;
    const first = grid?.selectedSourceRows().map((r) => grid.model.viewRow(r) ?? Infinity);
    if (grid && first?.length) grid.scrollToRow(Math.min(...first));
  }

  /** Resolves once the chart being drawn (if any) is drawn. */
  get drawing(): Promise<void> {
    return this._pending?.promise ?? Promise.resolve();
  }

  /** Draws the chart again when the view's data changed (nothing while the table shows). */
  refresh(): Promise<void> {
    return this._mode === 'table' ? Promise.resolve() : this._draw();
  }

  /** Draws again (the theme changed: the renderer picks its Vega theme from JupyterLab's). */
  updateTheme(): void {
    if (this._mode !== 'table') void this._draw(true);
  }

  /** `charts.<name>(variable, …)` for the chart shown, for the notebook cell; null for the table. */
  pythonChart(variable: string): string | null {
    const name = this.chart;
    return name ? chartCall(name, variable, this._options.source.chartOptions?.(name)) : null;
  }

  dispose(): void {
    this._resize.disconnect();
    clearTimeout(this._timer);
    this._clear();
    this.area.dispose();
  }

  private _choices(mode: ShowMode): ChartChoice[] {
    return this._options.choices.filter((c) => c.kind === mode);
  }

  private _showButtons(): void {
    for (const [mode, b] of this._buttons) b.setAttribute('aria-pressed', String(mode === this._mode));
    const choices = this._mode === 'table' ? [] : this._choices(this._mode);
    this._picker.replaceChildren(...choices.map((c) => new Option(c.label, c.name, false, c.name === this.chart)));
    this._picker.hidden = choices.length < 2;
  }

  private _onModelChanged(): void {
    if (this._mode === 'table') return;
    clearTimeout(this._timer);
    // New data is drawn at once; a filter typed letter by letter once the typing pauses.
    const known = this._pending?.rows.version ?? this._drawn?.rows.version;
    if (this._options.grid?.model.table !== known) void this._draw();
    else this._timer = setTimeout(() => void this._draw(), 250);
  }

  private _clear(): void {
    this._drawn?.selection?.dispose();
    this._drawn?.rendered.widget.dispose();
    this._drawn = null;
    this.facts = null;
  }

  private _say(state: string, text = ''): void {
    this.area.node.dataset.state = state;
    this._status.textContent = text;
    this._status.hidden = !text;
  }

  /** Draws the chart of the rows shown, unless it is drawn or being drawn (then that draw is awaited). */
  private _draw(force = false): Promise<void> {
    const name = this.chart;
    const rows = this._options.source.chartRows();
    const renderer = this._options.charts;
    if (!name || !renderer) return Promise.resolve();
    if (!rows) {
      // No data (any more): no chart of the data that was.
      this._generation++;
      this._clear();
      this._say('empty', 'Nothing to draw yet.');
      return Promise.resolve();
    }
    const same = (x: { name: string; rows: ChartRows } | null) =>
      !!x && x.name === name && x.rows.version === rows.version && sameRows(x.rows.sourceRows, rows.sourceRows);
    if (!force && same(this._pending)) return this._pending!.promise;
    if (!force && !this._pending && same(this._drawn)) return Promise.resolve();
    const pending = { name, rows, promise: this._render(name, rows, renderer) };
    this._pending = pending;
    void pending.promise.finally(() => {
      if (this._pending === pending) this._pending = null;
    });
    return pending.promise;
  }

  private async _render(name: string, rows: ChartRows, renderer: IDchubCharts): Promise<void> {
    const generation = ++this._generation;
    const kind = this._mode;
    this._say('drawing', kind === 'map' ? 'Drawing the map…' : 'Drawing the chart…');
    try {
      // The width the view gives (its padding and scroll bar left out) and JupyterLab's theme's colours.
      this._width = this.area.node.clientWidth;
      const room = this._width > 0 ? Math.max(240, this._width - 16) : undefined;
      let { spec, rendered } = await this._drawAt(name, rows, renderer, room);
      if (!rendered) return;
      // Core sizes the chart from estimated text widths; drawn wider than the room, it is drawn once more, narrower
      // by what it overran (the browser's own measure), so nothing is cut or scrolled sideways.
      const over = room ? (rendered.widget.node.querySelector('svg')?.getBoundingClientRect().width ?? 0) - room : 0;
      if (room && over > 1) {
        rendered.widget.dispose();
        ({ spec, rendered } = await this._drawAt(name, rows, renderer, Math.max(200, Math.floor(room - over - 4))));
        if (!rendered) return;
      }
      if (generation !== this._generation) return rendered.widget.dispose();
      this.area.node.setAttribute('aria-label', kind === 'map' ? 'Map' : 'Chart');
      rendered.widget.node.append(dataTableFor(spec));
      const facts = (spec.usermeta as { dchub: ChartFacts }).dchub;
      const grid = this._options.grid;
      const selection =
        kind === 'map' && grid && rendered.view && SELECTABLE_CHARTS.includes(name)
          ? new MapSelection(grid, rendered.view, rows.sourceRows, () => this._showSelected())
          : null;
      this._drawn = { rendered, rows, name, selection };
      this.facts = facts;
      Object.assign(this.area.node.dataset, {
        chart: name,
        rows: String(facts.rows),
        drawn: String(facts.drawn),
        selectable: String(!!selection)
      });
      this._showSelected();
      this._say('drawn');
    } catch (err) {
      if (generation !== this._generation) return;
      this._say('error', `The chart could not be drawn: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Builds the chart at `width` in JupyterLab's theme and draws it (null when a newer draw started meanwhile). */
  private async _drawAt(
    name: string,
    rows: ChartRows,
    renderer: IDchubCharts,
    width: number | undefined
  ): Promise<{ spec: VegaLiteSpec; rendered: RenderedChart | null }> {
    const generation = this._generation;
    const spec = await buildChart(
      name,
      { rows: rows.records, ...this._options.source.chartContext() },
      { ...(this._options.source.chartOptions?.(name) ?? {}), width, theme: jupyterChartTheme() }
    );
    if (generation !== this._generation) return { spec, rendered: null };
    this._clear();
    const rendered = await renderer.render(spec, this.area);
    if (generation === this._generation) return { spec, rendered };
    rendered.widget.dispose();
    return { spec, rendered: null };
  }

  private _showSelected(): void {
    const selection = this._drawn?.selection;
    if (selection) this.area.node.dataset.selected = String(selection.mapRows.length);
    else delete this.area.node.dataset.selected;
  }
}

/**
 * The chart source of a view over a grid model: the rows the grid shows (filtered), in source
 * order, as records; the footer's context from the answer's fetchMeta and the table's citation
 * and as-of; the options each chart takes; how many rows matched the call (a queue's total).
 */
export function tableChartSource(
  model: TableModel,
  metas: () => ReadonlyArray<FetchMeta | undefined>,
  options: ChartSource['chartOptions'] = () => ({}),
  matching: () => number | null = () => null
): ChartSource {
  return {
    chartRows: () => {
      if (!model.table.rows.length) return null;
      const sourceRows = model.visibleSourceRows();
      return { records: tableRecords(model.table, sourceRows), sourceRows, version: model.table };
    },
    chartContext: () =>
      chartContext(metas(), { citation: model.table.citation, asOf: model.table.asOf, matching: matching() }),
    chartOptions: options
  };
}
