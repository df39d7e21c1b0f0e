import {
  DchubError,
  briefToRow,
  briefsTable,
  fetchBriefsAllPages,
  fetchBriefsDiff,
  fetchMeta,
  mergeBriefDiff,
  refreshedText,
  type BriefCsvRowT,
  type PagesProgress,
  type Table
} from '@dchub/core';
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
import { pythonCall } from './pycode';
import { AnswerBanner } from './banner';
import { VIEW_CHARTS } from './chartData';
import { ChartSwitch, tableChartSource } from './chartSwitch';
import { TableGrid } from './grid';
import { briefsProgressText } from './helpers';
import { runBusy, type RequestView } from './request';
import type { SectionOptions } from './section';
import { TableModel } from './tableModel';
import { layoutTableView, nodeRow, ResultView, sectionTab } from './views';

export interface BriefsPanelOptions extends SectionOptions {
  /** Called when Refresh is pressed (the plugin routes it through a command). */
  onRefresh: () => void;
}

/** What a load or refresh did, as returned by the refresh command. */
export interface BriefsRefreshResult {
  count: number;
  changed: string[];
  added: string[];
  asOf: string;
}

/**
 * Market briefs: every brief the caller's tier may see, in a sortable and filterable grid with
 * coloured verdicts, in a main-area view (`view`); the sidebar tab keeps Refresh and the errors. Refresh asks `/diff`
 * for briefs recomputed since the newest `computed_at`
 * in the table, merges them in place and highlights the changed rows. The DOM summary
 * (`.jp-DCHub-briefs-count[data-count]`, `.jp-DCHub-briefs-changed[data-changed]`,
 * `.jp-DCHub-briefs-status[data-stale][data-offline]`) says what the canvas paints.
 */
export class BriefsPanel extends Panel implements TableSource {
  readonly kind = 'briefs';
  readonly exportTitle = 'DC Hub market briefs';
  readonly model = new TableModel(undefined, { keyColumn: 'market_slug' });
  readonly grid: TableGrid;
  /** Table or Chart (leaderboard, time to power by market); briefs carry no coordinates, so no map. */
  readonly charts: ChartSwitch;
  /** The last answer (its fetchMeta: stale pages, what the tier withholds). */
  private _answer: object | null = null;
  readonly view = new ResultView('briefs', 'DC Hub briefs', 'Market briefs (DC Hub Power Index)');

  private readonly _connection: Connection;
  private _rows: BriefCsvRowT[] | null = null;
  private _asOf = '';
  private _tier = '';
  private _lastRefreshed: number | null = null;
  private _inflight: Promise<BriefsRefreshResult | null> | null = null;
  /** Aborts the pages still to read when the connection changes (reset) or the panel closes. */
  private _abort: AbortController | null = null;
  private _timer: ReturnType<typeof setInterval> | null = null;
  private _ageTimer: ReturnType<typeof setInterval> | null = null;

  private readonly _refresh: HTMLButtonElement;
  private readonly _busy: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _count: HTMLElement;
  private readonly _status: HTMLElement;
  private readonly _changed: HTMLElement;
  private readonly _citation: HTMLElement;
  /** A stale page's age and reason, what the tier withholds, briefs that failed to build on the service. */
  private readonly _banner = new AnswerBanner('jp-DCHub-briefs-banner');
  private readonly _view: RequestView;
  private readonly _showView: (view: ResultView) => void;

  constructor(options: BriefsPanelOptions) {
    super();
    this._connection = options.connection;
    sectionTab(this, 'jp-DCHub-briefs', 'Briefs', 'Market briefs (DC Hub Power Index)');

    const bar = div('jp-DCHub-toolbar');
    this._refresh = button('jp-DCHub-briefs-refresh', 'Refresh', () => options.onRefresh());
    this._refresh.title = 'Load the briefs, or fetch the ones recomputed since the last refresh';
    const filter = filterBox('jp-DCHub-briefs-filter', (text) => {
      this.model.setFilter(text);
      this._showCount();
    });
    bar.append(this._refresh);
    const viewBar = div('jp-DCHub-toolbar');
    viewBar.append(filter);
    this._busy = hiddenDiv('jp-DCHub-briefs-busy', 'Loading briefs…', 'status');
    this._error = hiddenDiv('jp-DCHub-briefs-error', '', 'alert');
    this._count = div('jp-DCHub-briefs-count', 'Briefs not loaded yet.');
    this._count.setAttribute('aria-live', 'polite');
    this._status = hiddenDiv('jp-DCHub-briefs-status');
    this._changed = hiddenDiv('jp-DCHub-briefs-changed');
    const intro = div('jp-DCHub-intro', 'The briefs open in the main area; Refresh merges the ones recomputed since.');
    this.addWidget(nodeRow('jp-DCHub-top', bar, intro, this._busy, this._error));
    this._showView = options.showView;

    this.grid = new TableGrid(this.model, {
      className: 'jp-DCHub-briefs-grid',
      verdictColumn: 'verdict',
      label: 'Market briefs'
    });
    const metas = () => [this._answer ? fetchMeta(this._answer) : undefined];
    this.charts = new ChartSwitch({
      charts: options.charts,
      choices: VIEW_CHARTS.briefs,
      table: this.grid,
      grid: this.grid,
      source: tableChartSource(this.model, metas)
    });
    this._citation = hiddenDiv('jp-DCHub-briefs-citation');
    layoutTableView(this.view, {
      head: [viewBar, this.charts.bar, this._count, this._status, this._banner.node, this._changed],
      grid: this.grid,
      charts: this.charts.area,
      bottom: [tableActions(this.kind, options.actions), this._citation]
    });

    this._view = {
      error: this._error,
      setBusy: (busy) => this._setBusy(busy),
      onError: (err) => this._showFailure(err)
    };

    // Keep "refreshed N min ago" current.
    this._ageTimer = setInterval(() => this._showStatus(), 30_000);
  }

  /** Whether a load or refresh is running. */
  get busy(): boolean {
    return this._inflight !== null;
  }

  /** Whether the briefs have been loaded at least once. */
  get loaded(): boolean {
    return this._rows !== null;
  }

  exportTable(): Table | null {
    return this._rows ? this.model.visibleTable : null;
  }

  /** `hub.briefs()`: every brief of the tier, fetched again when the cell runs. */
  pythonCall(): PythonCall | null {
    return this._rows ? { call: pythonCall('briefs') } : null;
  }

  /** Re-checks for changes every `minutes` (0 stops it); only runs once loaded. */
  setAutoRefresh(minutes: number): void {
    if (this._timer !== null) clearInterval(this._timer);
    this._timer = null;
    if (minutes > 0) {
      this._timer = setInterval(() => {
        if (this._rows && this.isVisible) void this.refresh();
      }, minutes * 60_000);
    }
  }

  /**
   * Loads all briefs the first time, afterwards merges `/diff` since the last as-of. Never
   * throws: failures land in the error area and the table (if any) is kept, marked offline.
   * Concurrent calls share one request.
   */
  refresh(): Promise<BriefsRefreshResult | null> {
    if (!this._inflight) {
      const run: Promise<BriefsRefreshResult | null> = this._run().finally(() => {
        // A run that reset() cut short must not clear the one started after it.
        if (this._inflight === run) this._inflight = null;
      });
      this._inflight = run;
    }
    return this._inflight;
  }

  /** Drops the table and loads everything again (after a connection change). */
  reset(): void {
    this._abort?.abort();
    this._inflight = null;
    this._rows = null;
    this._asOf = '';
    this.model.setTable(null);
    this._count.textContent = 'Briefs not loaded yet.';
    delete this._count.dataset.count;
    delete this._count.dataset.asOf;
    this._changed.hidden = true;
    this._status.hidden = true;
  }

  updateTheme(): void {
    this.grid.updateTheme();
    this.charts.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._abort?.abort();
    if (this._timer !== null) clearInterval(this._timer);
    if (this._ageTimer !== null) clearInterval(this._ageTimer);
    this._timer = this._ageTimer = null;
    this.charts.dispose();
    super.dispose();
  }

  private _run(): Promise<BriefsRefreshResult | null> {
    const abort = new AbortController();
    this._abort = abort;
    // Only the latest run clears the busy line (one that reset() cut short ends after the next began).
    const view: RequestView = {
      ...this._view,
      setBusy: (busy) => {
        if (busy || this._abort === abort) this._setBusy(busy);
      }
    };
    return runBusy(view, async () => {
      const client = await this._connection.client();
      // Core reads every page (the tier's page size, from where the service cut the last page).
      const opts = { onProgress: (p: PagesProgress) => this._showProgress(p), signal: abort.signal };
      let result: BriefsRefreshResult;
      const refreshing = this._rows !== null;
      let answer;
      if (!this._rows) {
        answer = await fetchBriefsAllPages(client, opts);
        abort.signal.throwIfAborted();
        const rows = answer.briefs.map(briefToRow);
        this._tier = answer.tier;
        const table = briefsTable(rows);
        this._rows = rows;
        this._asOf = table.asOf ?? '';
        this.model.setTable(table);
        this.grid.fitColumns();
        result = { count: rows.length, changed: [], added: [], asOf: this._asOf };
      } else {
        // Every page of /diff: above one page of changed markets, nothing may be lost.
        const since = this._asOf || new Date(0).toISOString();
        answer = await fetchBriefsDiff(client, since, opts);
        abort.signal.throwIfAborted();
        const merged = mergeBriefDiff(this._rows, answer);
        this._rows = merged.rows;
        this._asOf = merged.asOf || this._asOf;
        this.model.setTable(briefsTable(merged.rows), [...merged.changed, ...merged.added]);
        result = { count: merged.rows.length, changed: merged.changed, added: merged.added, asOf: this._asOf };
      }
      // The pages' fetchMeta as one: stale when any page was, every brief the service failed to build named.
      const meta = fetchMeta(answer);
      this._answer = answer;
      const stale = meta?.stale === true;
      this._showView(this.view);
      this._lastRefreshed = Date.now();
      this._status.dataset.offline = 'false';
      this._status.dataset.stale = String(stale);
      this._showCount();
      this._banner.showMeta([meta]);
      this._showChanged(result, refreshing);
      this._showStatus();
      showText(this._citation, this.model.table.citation);
      return result;
    });
  }

  private _showFailure(err: unknown): void {
    // A read cut short by reset() (the connection changed) or by closing is no failure to show.
    if (err instanceof DOMException && err.name === 'AbortError') return;
    showError(
      this._error,
      err,
      failureHint(this._connection.state.mode, 'The Jupyter server could not reach the DC Hub service.')
    );
    if (this._rows) {
      // Keep showing what we have, marked offline.
      // Unreachable (or the relay could not reach it: 5xx) means offline; a refused request does not.
      this._status.dataset.offline = String(
        err instanceof DchubError && (err.kind === 'network' || err.kind === 'server')
      );
      this._showStatus();
    }
  }

  private _setBusy(busy: boolean): void {
    showBusy(this.node, this._busy, this._refresh, busy);
    this._busy.textContent = briefsProgressText(this._rows !== null);
    for (const k of ['pagesDone', 'pagesTotal', 'rowsDone', 'rowsTotal']) delete this._busy.dataset[k];
  }

  /** Where the reading of the pages stands (after each page), in the busy line and its data attributes. */
  private _showProgress(p: PagesProgress): void {
    this._busy.textContent = briefsProgressText(this._rows !== null, p);
    this._busy.dataset.pagesDone = String(p.pagesDone);
    this._busy.dataset.pagesTotal = String(p.pagesTotal);
    this._busy.dataset.rowsDone = String(p.rowsDone);
    this._busy.dataset.rowsTotal = String(p.rowsTotal);
  }

  private _showCount(): void {
    const total = this.model.table.rows.length;
    const shown = this.model.rowCount('body');
    this._count.dataset.count = String(total);
    this._count.dataset.shown = String(shown);
    if (this._tier) this._count.dataset.tier = this._tier;
    if (this._asOf) this._count.dataset.asOf = this._asOf;
    const tier = this._tier ? ` (${this._tier} tier)` : '';
    this._count.textContent =
      shown === total ? `${total} market briefs${tier}` : `${shown} of ${total} market briefs${tier}`;
  }

  /** Lists the changed and added slugs after a refresh (the first load changes nothing). */
  private _showChanged(result: BriefsRefreshResult, refreshing: boolean): void {
    const slugs = [...result.changed, ...result.added];
    this._changed.dataset.changed = slugs.join(' ');
    this._changed.dataset.changedCount = String(result.changed.length);
    this._changed.dataset.addedCount = String(result.added.length);
    this._changed.textContent = !refreshing
      ? ''
      : slugs.length
        ? `Changed since the last refresh (highlighted): ${slugs.join(', ')}`
        : 'No briefs changed since the last refresh.';
    this._changed.hidden = !refreshing;
  }

  private _showStatus(): void {
    if (this._lastRefreshed === null) return;
    const parts = [
      `${refreshedText(Date.now() - this._lastRefreshed)} (${new Date(this._lastRefreshed).toLocaleTimeString()})`
    ];
    if (this._asOf) parts.push(`data as of ${this._asOf}`);
    if (this._status.dataset.offline === 'true') parts.push('OFFLINE: showing the last data received');
    else if (this._status.dataset.stale === 'true') parts.push('STALE: served from cache');
    this._status.textContent = parts.join(' · ');
    this._status.dataset.refreshedAt = new Date(this._lastRefreshed).toISOString();
    this._status.hidden = false;
  }
}
