import {
  QUEUE_ISOS,
  refineQueue,
  type QueueFiltersInput,
  type Cell,
  type QueueResultT,
  type Table
} from '@dchub/core';
import { Panel, Widget } from '@lumino/widgets';
import type { Connection } from './connection';
import {
  button,
  checkbox,
  CHECK_FIELD,
  div,
  failureHint,
  field,
  filterBox,
  hiddenDiv,
  numberInput,
  readNumber,
  select,
  showBusy,
  showError,
  showText,
  submitForm,
  tableActions,
  textInput,
  WIDE_FIELD,
  type PythonCall,
  type SectionActions,
  type TableSource
} from './dom';
import { TableGrid } from './grid';
import { candidatesFromRows, suggestedMaxTtp } from './helpers';
import { formNumber, pythonCall } from './pycode';
import { LatestRequest } from './request';
import { lazyQueueTable } from './lazyTable';
import { QueueModel } from './tableModel';
import { ResultView } from './views';

/** The queue form's values as typed (blank means "no limit"). */
export interface QueueQuery {
  /** ISOs (any of `QUEUE_ISOS`); empty for all. */
  iso: string[];
  min_mw: string;
  max_ttp_months: string;
  /** Fuel label substrings, comma separated. */
  fuel_type: string;
  /** "active" (default when blank), "all" or a status substring. */
  status: string;
  baseload_only: boolean;
  max_fiber_km: string;
  geocoded_only: boolean;
  /** Rows to return; blank uses the settings' default. */
  limit: string;
}

/** What the site scorer needs from a queue row (its `site_evaluation_handoff.analyze_site`). */
export interface SiteHandoff {
  lat: number;
  lon: number;
  capacity_mw?: number;
  /** Where it came from, for the site card. */
  label?: string;
}

export interface QueuePanelOptions {
  connection: Connection;
  /** Called when the Search button is pressed (the plugin routes it through a command). */
  onSearch: () => void;
  /** Hands a selected row to the site scorer. */
  onScoreSite: (site: SiteHandoff) => void;
  /** Hands the selected rows to the ranking tab as candidates. */
  onRank: (candidates: Array<Record<string, Cell>>) => void;
  /** Puts the results view in the main area. */
  showView: (view: ResultView) => void;
  actions: SectionActions;
}

/**
 * Interconnection-queue explorer: every predicate of spec §4.2 as a form control in the sidebar;
 * the results in a main-area view (`view`): the counts, the time-to-power hint with a one-click
 * fix, the survivors in a sortable and filterable grid, the citation, and hand-offs of the
 * selected rows to site scoring and ranking. DOM elements carry stable classes and data
 * attributes so tests (and screen readers) can read what the canvas paints.
 */
export class QueuePanel extends Panel implements TableSource {
  readonly kind = 'queue';
  readonly exportTitle = 'DC Hub interconnection queue';
  readonly model = new QueueModel(undefined, { keyColumn: 'queue_id' });
  readonly grid: TableGrid;
  /** The results, shown in the main area. */
  readonly view = new ResultView('queue', 'DC Hub queue', 'Interconnection-queue survivors');

  private readonly _connection: Connection;
  private _lastResult: QueueResultT | null = null;

  private readonly _iso: HTMLSelectElement;
  private readonly _minMw: HTMLInputElement;
  private readonly _maxTtp: HTMLInputElement;
  private readonly _fuel: HTMLInputElement;
  private readonly _status: HTMLInputElement;
  private readonly _baseload: HTMLInputElement;
  private readonly _maxFiber: HTMLInputElement;
  private readonly _geocoded: HTMLInputElement;
  private readonly _limit: HTMLInputElement;
  private readonly _button: HTMLButtonElement;
  private readonly _intro: HTMLElement;
  private readonly _busy: HTMLElement;
  private readonly _count: HTMLElement;
  private readonly _hint: HTMLElement;
  private readonly _hintText: HTMLElement;
  private readonly _hintApply: HTMLButtonElement;
  private readonly _error: HTMLElement;
  private readonly _citation: HTMLElement;
  private readonly _handoff: HTMLButtonElement;
  private readonly _rankSelected: HTMLButtonElement;
  private readonly _selection: HTMLElement;
  private readonly _request: LatestRequest;
  private readonly _showView: (view: ResultView) => void;
  /** The filters of the last successful search, for the notebook code. */
  private _lastQuery: QueueQuery | null = null;

  constructor(options: QueuePanelOptions) {
    super();
    this._connection = options.connection;
    this.addClass('jp-DCHub-section');
    this.addClass('jp-DCHub-queue');
    this.title.label = 'Queue';
    this.title.caption = 'Interconnection queue search';

    const top = new Widget();
    top.addClass('jp-DCHub-top');

    const form = submitForm('jp-DCHub-form', () => options.onSearch());
    this._iso = select('iso', QUEUE_ISOS, { className: 'jp-DCHub-input jp-DCHub-iso', multiple: true });
    this._iso.size = 4;
    this._iso.title = 'None selected: all ISOs. Ctrl/Cmd-click to pick several.';
    this._minMw = numberInput('min_mw', 'any', { min: '0' });
    this._maxTtp = numberInput('max_ttp_months', 'any', { min: '0' });
    this._fuel = textInput('fuel_type', 'e.g. gas, nuclear');
    this._status = textInput('status', 'active');
    this._status.setAttribute('list', 'jp-DCHub-status-options');
    const statusOptions = document.createElement('datalist');
    statusOptions.id = 'jp-DCHub-status-options';
    for (const s of ['active', 'all']) statusOptions.append(new Option(s, s));
    this._baseload = checkbox('baseload_only');
    this._maxFiber = numberInput('max_fiber_km', 'any', { min: '0' });
    this._geocoded = checkbox('geocoded_only');
    this._limit = numberInput('limit', '200', { min: '1', step: '1' });
    this._button = button('jp-DCHub-search', 'Search', undefined, 'submit');
    form.append(
      field('ISO', this._iso, WIDE_FIELD),
      field('Minimum MW', this._minMw),
      field('Max time to power (months)', this._maxTtp),
      field('Fuel type', this._fuel),
      field('Status', this._status),
      statusOptions,
      field('Max fiber distance (km)', this._maxFiber),
      field('Rows (limit)', this._limit),
      field('Baseload only', this._baseload, CHECK_FIELD),
      field('Geocoded only', this._geocoded, CHECK_FIELD),
      this._button
    );
    top.node.appendChild(form);

    this._intro = div('jp-DCHub-intro', 'Choose filters and press Search; the survivors open in the main area.');
    this._busy = hiddenDiv('jp-DCHub-busy', 'Searching the queue…', 'status');
    this._count = hiddenDiv('jp-DCHub-count');
    this._count.setAttribute('aria-live', 'polite');
    this._hint = div('jp-DCHub-hint');
    this._hintText = document.createElement('span');
    this._hintText.className = 'jp-DCHub-hint-text';
    this._hintApply = button('jp-DCHub-hint-apply', 'Use this value', () => void this.applySuggestion());
    this._hint.append(this._hintText, ' ', this._hintApply);
    this._hint.hidden = true;
    this._error = hiddenDiv('jp-DCHub-error', '', 'alert');
    const filter = filterBox('jp-DCHub-queue-filter', (text) => {
      this.model.setFilter(text);
      this._updateSelection();
    });
    top.node.append(this._intro, this._busy, this._error);
    this.addWidget(top);
    this._showView = options.showView;

    const head = new Widget();
    head.addClass('jp-DCHub-top');
    head.node.append(this._count, this._hint, filter);
    this.view.addWidget(head);
    this.grid = new TableGrid(this.model, { className: 'jp-DCHub-grid' });
    this.view.addWidget(this.grid);
    this.grid.selectionModel?.changed.connect(() => this._updateSelection());

    const bottom = new Widget();
    bottom.addClass('jp-DCHub-bottom');
    const handoffBar = div('jp-DCHub-actions');
    this._handoff = button('jp-DCHub-handoff', 'Score selected site', () => this._handOff(options.onScoreSite));
    this._handoff.disabled = true;
    this._rankSelected = button('jp-DCHub-rank-selected', 'Rank selected', () => {
      const candidates = this.selectedCandidates();
      if (candidates.length) options.onRank(candidates);
    });
    this._rankSelected.disabled = true;
    this._selection = div('jp-DCHub-selection', 'Select rows to score or rank them.');
    handoffBar.append(this._handoff, this._rankSelected, this._selection);
    this._citation = hiddenDiv('jp-DCHub-citation');
    bottom.node.append(handoffBar, tableActions(this.kind, options.actions), this._citation);
    this.view.addWidget(bottom);

    this._request = new LatestRequest({
      error: this._error,
      setBusy: (busy) => this._setBusy(busy),
      onError: (err) => this._showFailure(err)
    });
  }

  /** Whether a search is running. */
  get busy(): boolean {
    return this._request.busy;
  }

  /** The last successful answer. */
  get lastResult(): QueueResultT | null {
    return this._lastResult;
  }

  exportTable(): Table | null {
    return this._lastResult ? this.model.visibleTable : null;
  }

  /** `hub.queue(...)` with the arguments of the search shown. */
  pythonCall(): PythonCall | null {
    const q = this._lastQuery;
    if (!q) return null;
    const limit = formNumber(q.limit) ?? this._connection.config.limit;
    return {
      call: pythonCall('queue', {
        iso: q.iso.length ? q.iso.join(',') : undefined,
        min_mw: formNumber(q.min_mw),
        max_ttp_months: formNumber(q.max_ttp_months),
        fuel_type: q.fuel_type.trim(),
        status: q.status.trim() && q.status.trim() !== 'active' ? q.status.trim() : undefined,
        baseload_only: q.baseload_only,
        max_fiber_km: formNumber(q.max_fiber_km),
        geocoded_only: q.geocoded_only,
        limit: limit === 200 ? undefined : limit
      })
    };
  }

  /** The form's current values. */
  get query(): QueueQuery {
    return {
      iso: [...this._iso.selectedOptions].map((o) => o.value),
      min_mw: this._minMw.value,
      max_ttp_months: this._maxTtp.value,
      fuel_type: this._fuel.value,
      status: this._status.value,
      baseload_only: this._baseload.checked,
      max_fiber_km: this._maxFiber.value,
      geocoded_only: this._geocoded.checked,
      limit: this._limit.value
    };
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<QueueQuery>) {
    if (q.iso !== undefined) {
      const wanted = new Set(q.iso.map((s) => s.trim().toUpperCase()));
      for (const o of this._iso.options) o.selected = wanted.has(o.value);
    }
    if (q.min_mw !== undefined) this._minMw.value = q.min_mw;
    if (q.max_ttp_months !== undefined) this._maxTtp.value = q.max_ttp_months;
    if (q.fuel_type !== undefined) this._fuel.value = q.fuel_type;
    if (q.status !== undefined) this._status.value = q.status;
    if (q.baseload_only !== undefined) this._baseload.checked = q.baseload_only;
    if (q.max_fiber_km !== undefined) this._maxFiber.value = q.max_fiber_km;
    if (q.geocoded_only !== undefined) this._geocoded.checked = q.geocoded_only;
    if (q.limit !== undefined) this._limit.value = q.limit;
  }

  /**
   * Runs the queue search for the form's values. Never throws: failures land in the error
   * area. A newer search cancels an older one still in flight.
   */
  async search(): Promise<QueueResultT | null> {
    return this._request.run(
      async (signal) => {
        const q = this.query;
        const filters: QueueFiltersInput = {
          iso: q.iso.length ? q.iso : undefined,
          min_mw: readNumber(this._minMw, 'min_mw'),
          max_ttp_months: readNumber(this._maxTtp, 'max_ttp_months'),
          fuel_type: q.fuel_type.trim() || undefined,
          status: q.status.trim() || undefined,
          baseload_only: q.baseload_only,
          max_fiber_km: readNumber(this._maxFiber, 'max_fiber_km'),
          geocoded_only: q.geocoded_only,
          limit: readNumber(this._limit, 'limit') || this._connection.config.limit
        };
        const client = await this._connection.client();
        const result = await refineQueue(client, filters, { signal });
        this._lastQuery = q;
        return result;
      },
      (result) => this._showResult(result)
    );
  }

  /** Fills max_ttp_months with the service's suggestion and searches again. */
  async applySuggestion(): Promise<QueueResultT | null> {
    const value = this._lastResult ? suggestedMaxTtp(this._lastResult) : undefined;
    if (value === undefined) return null;
    this._maxTtp.value = String(value);
    return this.search();
  }

  /** Re-reads theme colours into the grid. */
  updateTheme(): void {
    this.grid.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._request.abort(true);
    super.dispose();
  }

  /** The selected rows' hand-off to site scoring (first selected row first). */
  selectedSites(): SiteHandoff[] {
    const results = this._lastResult?.results ?? [];
    const out: SiteHandoff[] = [];
    for (const i of this.grid.selectedSourceRows()) {
      const r = results[i];
      const a = r?.site_evaluation_handoff?.analyze_site;
      const lat = a?.lat ?? r?.lat ?? undefined;
      const lon = a?.lon ?? r?.lng ?? undefined;
      if (typeof lat !== 'number' || typeof lon !== 'number') continue;
      const capacity = a?.capacity_mw ?? r?.capacity_mw ?? undefined;
      out.push({
        lat,
        lon,
        capacity_mw: typeof capacity === 'number' && capacity > 0 ? capacity : undefined,
        label: [r?.project_name, r?.queue_id].filter(Boolean).join(' · ') || undefined
      });
    }
    return out;
  }

  /** The selected rows as ranking candidates (id = queue_id, plus their numeric fields). */
  selectedCandidates(): Array<Record<string, Cell>> {
    return candidatesFromRows(this.model.table, this.grid.selectedSourceRows(), 'queue_id');
  }

  private _handOff(onScoreSite: (site: SiteHandoff) => void): void {
    const [site] = this.selectedSites();
    if (site) onScoreSite(site);
  }

  private _updateSelection(): void {
    const rows = this.grid.selectedSourceRows();
    const sites = this.selectedSites();
    this._selection.dataset.selected = String(rows.length);
    this._selection.dataset.scorable = String(sites.length);
    this._handoff.disabled = sites.length === 0;
    this._rankSelected.disabled = rows.length === 0;
    this._selection.textContent = rows.length
      ? sites.length
        ? `${rows.length} selected; scoring uses the first geocoded row.`
        : `${rows.length} selected; no coordinates to score.`
      : 'Select rows to score or rank them.';
  }

  private _setBusy(busy: boolean): void {
    showBusy(this.node, this._busy, this._button, busy);
    this._button.textContent = busy ? 'Searching…' : 'Search';
    this.toggleClass('jp-mod-busy', busy);
  }

  private _showResult(result: QueueResultT): void {
    this._lastResult = result;
    const isos = this._lastQuery?.iso ?? [];
    this.view.title.label = `DC Hub queue${isos.length ? `: ${isos.join(', ')}` : ''}`;
    this._showView(this.view);
    const table = lazyQueueTable(result);
    this.grid.selectionModel?.clear();
    this.model.setTable(table);
    this.grid.fitColumns();
    this._updateSelection();

    this._count.textContent = `Showing ${result.count_returned} of ${result.count_total_matching} projects`;
    this._count.dataset.countReturned = String(result.count_returned);
    this._count.dataset.countTotal = String(result.count_total_matching);
    this._count.hidden = false;

    const suggestion = suggestedMaxTtp(result);
    this._hintText.textContent = table.note ? `Time to power: ${table.note}` : '';
    this._hintApply.hidden = !(table.note && suggestion !== undefined);
    this._hintApply.textContent = suggestion !== undefined ? `Use ${suggestion} months` : 'Use this value';
    if (suggestion !== undefined) this._hintApply.dataset.value = String(suggestion);
    else delete this._hintApply.dataset.value;
    this._hint.hidden = !table.note;

    showText(this._citation, table.citation);
  }

  private _showFailure(err: unknown): void {
    const hint = failureHint(this._connection.state.mode, 'The Jupyter server could not reach the DC Hub service (check DCHUB_BASE_URL on the server).');
    showError(this._error, err, hint);
    this._count.hidden = true;
  }
}
