import { fetchMeta, refineQueue, suggestedMaxTtp, type Cell, type QueueResultT, type Table } from '@dchub/core';
import { Panel } from '@lumino/widgets';
import type { Connection } from './connection';
import {
  button,
  div,
  failureHint,
  filterBox,
  hiddenDiv,
  showBusy,
  showError,
  showText,
  tableActions,
  type PythonCall,
  type TableSource
} from './dom';
import type { SectionOptions } from './section';
import { AnswerBanner } from './banner';
import { VIEW_CHARTS } from './chartData';
import { ChartSwitch, tableChartSource } from './chartSwitch';
import { TableGrid } from './grid';
import { formNumber } from './pycode';
import { candidatesFromRows } from './rankForm';
import { QueueForm, queuePythonCall, type QueueQuery } from './queueForm';
import { LatestRequest } from './request';
import { lazyQueueTable } from './lazyTable';
import { QueueModel } from './tableModel';
import { layoutTableView, nodeRow, ResultView, sectionTab } from './views';

export type { QueueQuery } from './queueForm';

/** What the site scorer needs from a queue row (its `site_evaluation_handoff.analyze_site`). */
export interface SiteHandoff {
  lat: number;
  lon: number;
  capacity_mw?: number;
  /** Where it came from, for the site card. */
  label?: string;
}

export interface QueuePanelOptions extends SectionOptions {
  /** Called when the Search button is pressed (the plugin routes it through a command). */
  onSearch: () => void;
  /** Hands a selected row to the site scorer. */
  onScoreSite: (site: SiteHandoff) => void;
  /** Hands the selected rows to the ranking tab as candidates. */
  onRank: (candidates: Array<Record<string, Cell>>) => void;
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
  /** Table, Chart (queue mix, time to power) or Map; the map's points and the grid share the selection. */
  readonly charts: ChartSwitch;
  /** The results, shown in the main area. */
  readonly view = new ResultView('queue', 'DC Hub queue', 'Interconnection-queue survivors');

  private readonly _connection: Connection;
  private _lastResult: QueueResultT | null = null;

  private readonly _form: QueueForm;
  private readonly _intro: HTMLElement;
  private readonly _busy: HTMLElement;
  private readonly _count: HTMLElement;
  private readonly _hint: HTMLElement;
  private readonly _hintText: HTMLElement;
  private readonly _hintApply: HTMLButtonElement;
  private readonly _error: HTMLElement;
  private readonly _citation: HTMLElement;
  /**
   * What a preview withholds (and which of the user's filters it ignored), a stale answer's age, derived answers, bad
   * records.
   */
  private readonly _banner = new AnswerBanner('jp-DCHub-queue-banner');
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
    sectionTab(this, 'jp-DCHub-queue', 'Queue', 'Interconnection queue search');

    this._form = new QueueForm(() => options.onSearch());

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
    this.addWidget(nodeRow('jp-DCHub-top', this._form.node, this._intro, this._busy, this._error));
    this._showView = options.showView;

    this.grid = new TableGrid(this.model, { className: 'jp-DCHub-grid', label: 'Queue results' });
    this.charts = new ChartSwitch({
      charts: options.charts,
      choices: VIEW_CHARTS.queue,
      table: this.grid,
      grid: this.grid,
      source: tableChartSource(
        this.model,
        () => [fetchMeta(this._lastResult)],
        (name) => {
          const limit = name === 'queue_time_to_power' ? formNumber(this._lastQuery?.max_ttp_months ?? '') : undefined;
          return typeof limit === 'number' ? { maxTtpMonths: limit } : {};
        },
        () => this._lastResult?.count_total_matching ?? null
      )
    });
    this.grid.selectionModel?.changed.connect(() => this._updateSelection(), this);

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
    layoutTableView(this.view, {
      head: [this._count, this._banner.node, this._hint, this.charts.bar, filter],
      grid: this.grid,
      charts: this.charts.area,
      bottom: [handoffBar, tableActions(this.kind, options.actions), this._citation]
    });

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
    return this._lastQuery ? { call: queuePythonCall(this._lastQuery, this._connection.config.limit) } : null;
  }

  /** The form's current values. */
  get query(): QueueQuery {
    return this._form.query;
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<QueueQuery>) {
    this._form.query = q;
  }

  /**
   * Runs the queue search for the form's values. Never throws: failures land in the error
   * area. A newer search cancels an older one still in flight.
   */
  async search(): Promise<QueueResultT | null> {
    return this._request.run(
      async (signal) => {
        const q = this.query;
        const filters = this._form.filters(this._connection.config.limit);
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
    this._form.query = { max_ttp_months: String(value) };
    return this.search();
  }

  /** Re-reads theme colours into the grid. */
  updateTheme(): void {
    this.grid.updateTheme();
    this.charts.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._request.abort(true);
    this.charts.dispose();
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
    showBusy(this.node, this._busy, this._form.button, busy);
    this._form.button.textContent = busy ? 'Searching…' : 'Search';
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
    this._banner.showMeta([fetchMeta(result)]);

    // The service's explanations (the ISOs the cut excluded, its hint) are in the banner; when the cut
    // left nothing and the service suggests a value, one button asks again with it.
    const suggestion =
      result.results.length === 0 && fetchMeta(result)?.explanations?.length ? suggestedMaxTtp(result) : undefined;
    this._hintText.textContent =
      suggestion !== undefined ? `Time to power: ask again with max_ttp_months ${suggestion}` : '';
    this._hintApply.hidden = suggestion === undefined;
    this._hintApply.textContent = suggestion !== undefined ? `Use ${suggestion} months` : 'Use this value';
    if (suggestion !== undefined) this._hintApply.dataset.value = String(suggestion);
    else delete this._hintApply.dataset.value;
    this._hint.hidden = suggestion === undefined;

    showText(this._citation, table.citation);
  }

  private _showFailure(err: unknown): void {
    const hint = failureHint(
      this._connection.state.mode,
      'The Jupyter server could not reach the DC Hub service (check DCHUB_BASE_URL on the server).'
    );
    showError(this._error, err, hint);
    this._count.hidden = true;
  }
}
