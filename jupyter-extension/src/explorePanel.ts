import { fetchMeta, type Table } from '@dchub/core';
import { Panel } from '@lumino/widgets';
import {
  button,
  controlValues,
  div,
  failureHint,
  field,
  fillControls,
  filterBox,
  hiddenDiv,
  numberInput,
  select,
  showBusy,
  showError,
  showText,
  submitForm,
  tableActions,
  textArea,
  textInput,
  WIDE_FIELD,
  type FormControl,
  type PythonCall,
  type SectionActions,
  type TableSource
} from './dom';
import { AnswerBanner } from './banner';
import { ChartSwitch, tableChartSource } from './chartSwitch';
import { TableGrid } from './grid';
import { LatestRequest } from './request';
import { citationFor, RESOURCES, type ResourceSpec } from './resources';
import type { SectionOptions } from './section';
import { TableModel } from './tableModel';
import type { IDchubCharts } from './tokens';
import { layoutTableView, nodeRow, ResultView, sectionTab } from './views';

export interface ExplorePanelOptions extends SectionOptions {
  /** Called when "Open" is pressed (the plugin routes it through a command). */
  onOpen: () => void;
  /** Registers each resource view as an exportable table source. */
  addSource: (source: TableSource) => void;
  readFile: (path: string) => Promise<string>;
}

/** One resource's main-area view: summary, provenance or preview line, a filterable grid, actions. */
class ResourceView implements TableSource {
  readonly kind: string;
  readonly exportTitle: string;
  readonly view: ResultView;
  readonly model = new TableModel();
  readonly grid: TableGrid;
  /** Table / Chart / Map, for the resources that have charts (the DCPI's). */
  readonly charts: ChartSwitch;
  private readonly _count: HTMLElement;
  private readonly _provenance: HTMLElement;
  private readonly _note: HTMLElement;
  private readonly _banner = new AnswerBanner('jp-DCHub-resource-banner');
  private readonly _citation: HTMLElement;
  private _table: Table | null = null;
  private _args: Record<string, string> = {};
  private _answers: readonly unknown[] = [];

  constructor(
    readonly spec: ResourceSpec,
    actions: SectionActions,
    charts: IDchubCharts | null
  ) {
    this.kind = `explore:${spec.id}`;
    this.exportTitle = `DC Hub ${spec.label.toLowerCase()}`;
    this.view = new ResultView(`res-${spec.id}`, `DC Hub ${spec.label.toLowerCase()}`, spec.description);
    this.view.addClass('jp-DCHub-resource');
    this._count = div('jp-DCHub-resource-count');
    this._provenance = hiddenDiv('jp-DCHub-resource-provenance');
    this._note = hiddenDiv('jp-DCHub-resource-note');
    const filter = filterBox('jp-DCHub-resource-filter', (text) => {
      this.model.setFilter(text);
      this._showCount();
    });
    this.grid = new TableGrid(this.model, {
      className: 'jp-DCHub-resource-grid',
      verdictColumn: 'verdict',
      label: 'Resource rows'
    });
    const source = tableChartSource(this.model, () => this._answers.map(fetchMeta));
    this.charts = new ChartSwitch({ charts, choices: spec.charts ?? [], table: this.grid, grid: this.grid, source });
    this._citation = hiddenDiv('jp-DCHub-resource-citation');
    layoutTableView(this.view, {
      head: [this._count, this._banner.node, this._note, this._provenance, this.charts.bar, filter],
      grid: this.grid,
      charts: this.charts.area,
      bottom: [tableActions(this.kind, actions), this._citation]
    });
  }

  show(table: Table, args: Record<string, string>, provenance?: string, answers: readonly unknown[] = []): void {
    this._table = { ...table, citation: citationFor(this.spec.id, table) };
    this._args = { ...args };
    this._answers = answers;
    this.model.setTable(this._table);
    this.grid.fitColumns();
    this.view.dataset.resource = this.spec.id;
    this._showCount();
    // The preview, a stale answer's age and the reader's warnings in the banner; the table's own note beside.
    this._banner.showMeta(answers.map(fetchMeta));
    showText(this._note, table.note);
    this._note.dataset.preview = this._banner.node.dataset.preview;
    showText(this._provenance, provenance ? `Provenance: ${provenance}` : '');
    showText(this._citation, this._table.citation);
  }

  exportTable(): Table | null {
    return this._table ? this.model.visibleTable : null;
  }

  pythonCall(): PythonCall | null {
    return this._table ? this.spec.python(this._args) : null;
  }

  private _showCount(): void {
    const total = this.model.table.rows.length;
    const shown = this.model.rowCount('body');
    this._count.dataset.count = String(total);
    this._count.dataset.shown = String(shown);
    this._count.textContent = `${this.spec.label}: ${shown === total ? total : `${shown} of ${total}`} rows${this._table?.asOf ? ` · as of ${this._table.asOf}` : ''}`;
  }
}

/**
 * Every other resource of the spec (grid regions, DCPI, receipts, parcels, markets, facilities,
 * news, deals, pipeline, fuel mix, prices): pick one, fill its small form, and its table opens in
 * the main area, one tab per resource.
 */
export class ExplorePanel extends Panel implements TableSource {
  readonly kind = 'explore';
  readonly exportTitle = 'DC Hub data';
  private readonly _options: ExplorePanelOptions;
  private readonly _views = new Map<string, ResourceView>();
  private _lastShown: ResourceView | null = null;
  private readonly _select: HTMLSelectElement;
  private readonly _description: HTMLElement;
  private readonly _fields: HTMLElement;
  private readonly _button: HTMLButtonElement;
  private readonly _busy: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _request: LatestRequest;

  constructor(options: ExplorePanelOptions) {
    super();
    this._options = options;
    sectionTab(
      this,
      'jp-DCHub-explore',
      'More',
      'Grid regions, DCPI, receipts, parcels, markets, facilities, news, deals, pipeline'
    );
    const form = submitForm('jp-DCHub-form jp-DCHub-explore-form', () => options.onOpen());
    this._select = select(
      'resource',
      RESOURCES.map((r) => r.id)
    );
    for (const o of this._select.options) o.textContent = RESOURCES.find((r) => r.id === o.value)?.label ?? o.value;
    this._select.addEventListener('change', () => this._renderForm());
    this._description = div('jp-DCHub-explore-description');
    this._fields = div('jp-DCHub-explore-fields');
    this._button = button('jp-DCHub-explore-open', 'Open', undefined, 'submit');
    form.append(field('Data', this._select, WIDE_FIELD), this._description, this._fields, this._button);
    this._busy = hiddenDiv('jp-DCHub-explore-busy', 'Loading…', 'status');
    this._error = hiddenDiv('jp-DCHub-explore-error', '', 'alert');
    const top = nodeRow('jp-DCHub-top', form, this._busy, this._error);
    top.addClass('jp-DCHub-scroll');
    this.addWidget(top);
    this._renderForm();
    this._request = new LatestRequest({
      error: this._error,
      setBusy: (busy) => showBusy(this.node, this._busy, this._button, busy),
      onError: (err) =>
        showError(
          this._error,
          err,
          failureHint(options.connection.state.mode, 'The Jupyter server could not reach the DC Hub service.')
        )
    });
  }

  /** The resource currently chosen. */
  get resource(): string {
    return this._select.value;
  }

  /** Chooses a resource and fills its form (values by field name). */
  fill(resource: string, values: Record<string, string> = {}): void {
    if (!RESOURCES.some((r) => r.id === resource)) return;
    this._select.value = resource;
    this._renderForm();
    fillControls(this._fields, values);
  }

  /** The table of the resource view shown last. */
  exportTable(): Table | null {
    return this._lastShown?.exportTable() ?? null;
  }

  pythonCall(): PythonCall | null {
    return this._lastShown?.pythonCall() ?? null;
  }

  /** Loads the chosen resource into its main-area view. Never throws: failures land in the error area. */
  async open(): Promise<Table | null> {
    const spec = RESOURCES.find((r) => r.id === this._select.value);
    if (!spec) return null;
    const args = this._values();
    return this._request
      .run(
        async (signal) => {
          const client = await this._options.connection.client();
          return spec.load({ client, signal, readFile: this._options.readFile }, args);
        },
        (result) => {
          const view = this._viewOf(spec);
          view.show(result.table, args, result.provenance, result.answers);
          this._lastShown = view;
          this._options.showView(view.view);
        }
      )
      .then((r) => r?.table ?? null);
  }

  updateTheme(): void {
    for (const v of this._views.values()) {
      v.grid.updateTheme();
      v.charts.updateTheme();
    }
  }

  private _viewOf(spec: ResourceSpec): ResourceView {
    let v = this._views.get(spec.id);
    if (!v) {
      v = new ResourceView(spec, this._options.actions, this._options.charts);
      this._views.set(spec.id, v);
      this._options.addSource(v);
    }
    return v;
  }

  private _renderForm(): void {
    const spec = RESOURCES.find((r) => r.id === this._select.value);
    this._description.textContent = spec?.description ?? '';
    const controls = (spec?.fields ?? []).map((f) => {
      let control: FormControl;
      if (f.kind === 'select') control = select(f.name, f.options ?? []);
      else if (f.kind === 'number') control = numberInput(f.name, f.placeholder ?? '');
      else if (f.kind === 'geojson') {
        control = textArea(f.name, 4, f.placeholder);
        control.spellcheck = false;
      } else control = textInput(f.name, f.placeholder ?? '');
      return field(f.label, control, f.kind === 'geojson' ? WIDE_FIELD : 'jp-DCHub-field');
    });
    this._fields.replaceChildren(...controls);
  }

  /** The form's values by field name (a resource's fields are text, selects and numbers: all text). */
  private _values(): Record<string, string> {
    return Object.fromEntries(Object.entries(controlValues(this._fields)).map(([k, v]) => [k, String(v)]));
  }
}
