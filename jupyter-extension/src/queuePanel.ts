import {
  DchubClient,
  DchubError,
  QUEUE_ISOS,
  ValidationError,
  queueTable,
  refineQueue,
  type QueueResultT
} from '@dchub/core';
import {
  BasicKeyHandler,
  BasicMouseHandler,
  BasicSelectionModel,
  DataGrid,
  RendererMap,
  TextRenderer
} from '@lumino/datagrid';
import { Panel, Widget } from '@lumino/widgets';
import { QueueModel } from './queueModel';

/** The queue form's values as typed (blank means "no limit"). */
export interface QueueQuery {
  /** One of `QUEUE_ISOS`, or '' for all. */
  iso: string;
  min_mw: string;
  max_ttp_months: string;
}

/** What the panel reads from the user's settings. */
export interface PanelConfig {
  baseUrl: string;
  /** Maximum rows per search (1-1000). */
  limit: number;
}

export const DEFAULT_CONFIG: PanelConfig = { baseUrl: 'https://dchub.cloud', limit: 200 };

export interface QueuePanelOptions {
  /** Called when the Search button is pressed (the plugin routes it through a command). */
  onSearch: () => void;
  config?: PanelConfig;
}

/**
 * The DC Hub sidebar: a queue search form, a summary line, the survivors in a canvas data grid,
 * the citation, and an error area. DOM elements carry stable classes and data attributes so
 * tests (and screen readers) can read what the canvas paints.
 */
export class QueuePanel extends Panel {
  readonly model = new QueueModel();
  readonly grid: DataGrid;

  private _config: PanelConfig = DEFAULT_CONFIG;
  private _client: DchubClient | null = null;
  private _clientError: Error | null = null;
  private _inflight: AbortController | null = null;
  private _resizeObserver: ResizeObserver | null;
  private _lastResult: QueueResultT | null = null;
  private _font = '13px sans-serif';

  private readonly _form: HTMLFormElement;
  private readonly _iso: HTMLSelectElement;
  private readonly _minMw: HTMLInputElement;
  private readonly _maxTtp: HTMLInputElement;
  private readonly _button: HTMLButtonElement;
  private readonly _intro: HTMLElement;
  private readonly _busy: HTMLElement;
  private readonly _count: HTMLElement;
  private readonly _hint: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _citation: HTMLElement;

  constructor(options: QueuePanelOptions) {
    super();
    this.id = 'dchub-panel';
    this.addClass('jp-DCHub-panel');
    this.title.caption = 'DC Hub';

    // Header and form.
    const top = new Widget();
    top.addClass('jp-DCHub-top');
    const header = document.createElement('header');
    header.className = 'jp-DCHub-header';
    header.innerHTML = '<h2 class="jp-DCHub-title">DC Hub</h2><p class="jp-DCHub-subtitle">Interconnection queue search</p>';
    top.node.appendChild(header);

    this._form = document.createElement('form');
    this._form.className = 'jp-DCHub-form';
    // Core validation reports bad input in its own words, so the browser's bubbles stay off.
    this._form.noValidate = true;
    this._iso = document.createElement('select');
    this._iso.name = 'iso';
    this._iso.className = 'jp-DCHub-input';
    this._iso.add(new Option('All', ''));
    for (const iso of QUEUE_ISOS) this._iso.add(new Option(iso, iso));
    this._minMw = numberInput('min_mw', 'any');
    this._maxTtp = numberInput('max_ttp_months', 'any');
    this._button = document.createElement('button');
    this._button.type = 'submit';
    this._button.className = 'jp-DCHub-search';
    this._button.textContent = 'Search';
    this._form.append(
      field('ISO', this._iso),
      field('Minimum MW', this._minMw),
      field('Max time to power (months)', this._maxTtp),
      this._button
    );
    this._form.addEventListener('submit', (event) => {
      event.preventDefault();
      options.onSearch();
    });
    top.node.appendChild(this._form);

    // Status: intro (until the first answer), busy, count, hint, error.
    this._intro = div('jp-DCHub-intro', 'Choose filters and press Search to list queued projects.');
    this._busy = div('jp-DCHub-busy', 'Searching the queue…');
    this._busy.setAttribute('role', 'status');
    this._busy.hidden = true;
    this._count = div('jp-DCHub-count', '');
    this._count.setAttribute('aria-live', 'polite');
    this._count.hidden = true;
    this._hint = div('jp-DCHub-hint', '');
    this._hint.hidden = true;
    this._error = div('jp-DCHub-error', '');
    this._error.setAttribute('role', 'alert');
    this._error.hidden = true;
    top.node.append(this._intro, this._busy, this._error, this._count, this._hint);
    this.addWidget(top);

    // Grid.
    this.grid = new DataGrid({
      defaultSizes: { rowHeight: 22, columnWidth: 96, rowHeaderWidth: 44, columnHeaderHeight: 24 },
      headerVisibility: 'all'
    });
    this.grid.addClass('jp-DCHub-grid');
    this.grid.dataModel = this.model;
    this.grid.keyHandler = new BasicKeyHandler();
    this.grid.mouseHandler = new BasicMouseHandler();
    this.grid.selectionModel = new BasicSelectionModel({ dataModel: this.model });
    this.addWidget(this.grid);
    // The grid paints a canvas sized to its box; re-measure whenever the flex layout resizes it
    // (status lines appearing, the sidebar being dragged), not only on Lumino resize messages.
    this._resizeObserver = new ResizeObserver(() => {
      if (this.grid.isVisible) this.grid.processMessage(Widget.ResizeMessage.UnknownSize);
    });
    this._resizeObserver.observe(this.grid.node);

    // Citation.
    const bottom = new Widget();
    bottom.addClass('jp-DCHub-bottom');
    this._citation = div('jp-DCHub-citation', '');
    this._citation.hidden = true;
    bottom.node.appendChild(this._citation);
    this.addWidget(bottom);

    this.updateTheme();
    this.configure(options.config ?? DEFAULT_CONFIG);
  }

  /** The current settings. */
  get config(): PanelConfig {
    return this._config;
  }

  /** Whether a search is running. */
  get busy(): boolean {
    return this._inflight !== null;
  }

  /** The last successful answer. */
  get lastResult(): QueueResultT | null {
    return this._lastResult;
  }

  /** Applies settings; a new base URL takes effect on the next search. */
  configure(config: PanelConfig): void {
    this._config = { ...config };
    try {
      this._client = new DchubClient({ baseUrl: config.baseUrl });
      this._clientError = null;
    } catch (err) {
      this._client = null;
      this._clientError = err instanceof Error ? err : new Error(String(err));
    }
  }

  /** The form's current values. */
  get query(): QueueQuery {
    return { iso: this._iso.value, min_mw: this._minMw.value, max_ttp_months: this._maxTtp.value };
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<QueueQuery>) {
    if (q.iso !== undefined) this._iso.value = q.iso;
    if (q.min_mw !== undefined) this._minMw.value = q.min_mw;
    if (q.max_ttp_months !== undefined) this._maxTtp.value = q.max_ttp_months;
  }

  /**
   * Runs the queue search for the form's values. Never throws: failures land in the error
   * area. A newer search cancels an older one still in flight.
   */
  async search(): Promise<QueueResultT | null> {
    this._inflight?.abort();
    const inflight = new AbortController();
    this._inflight = inflight;
    this._setBusy(true);
    this._showError(null);
    try {
      if (!this._client) throw this._clientError ?? new DchubError('validation', 'no DC Hub base URL configured');
      const q = this.query;
      const result = await refineQueue(
        this._client,
        {
          iso: q.iso || undefined,
          min_mw: readNumber(this._minMw, 'min_mw'),
          max_ttp_months: readNumber(this._maxTtp, 'max_ttp_months'),
          limit: this._config.limit
        },
        { signal: inflight.signal }
      );
      if (inflight.signal.aborted) return null;
      this._showResult(result);
      return result;
    } catch (err) {
      if (inflight.signal.aborted) return null;
      this._showError(err);
      return null;
    } finally {
      if (this._inflight === inflight) {
        this._inflight = null;
        this._setBusy(false);
      }
    }
  }

  /** Re-reads the JupyterLab theme's colors and fonts into the canvas grid. */
  updateTheme(): void {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const bg = v('--jp-layout-color0', '#ffffff');
    const alt = v('--jp-layout-color1', '#f7f7f7');
    const line = v('--jp-border-color3', '#e0e0e0');
    const headerBg = v('--jp-layout-color2', '#eeeeee');
    const headerLine = v('--jp-border-color2', '#cccccc');
    const text = v('--jp-ui-font-color1', '#212121');
    const muted = v('--jp-ui-font-color2', '#616161');
    const family = v('--jp-ui-font-family', 'system-ui, sans-serif');
    const size = v('--jp-ui-font-size1', '13px');
    const brand = v('--jp-brand-color1', '#1976d2');

    this.grid.style = {
      ...DataGrid.defaultStyle,
      voidColor: bg,
      backgroundColor: bg,
      rowBackgroundColor: (i) => (i % 2 === 0 ? bg : alt),
      gridLineColor: line,
      headerBackgroundColor: headerBg,
      headerGridLineColor: headerLine,
      selectionFillColor: 'rgba(33, 150, 243, 0.15)',
      selectionBorderColor: brand,
      cursorBorderColor: brand,
      headerSelectionFillColor: 'rgba(33, 150, 243, 0.12)',
      headerSelectionBorderColor: brand
    };
    this._font = `${size} ${family}`;
    const body = new TextRenderer({
      font: this._font,
      textColor: text,
      horizontalAlignment: ({ value }) => (typeof value === 'number' ? 'right' : 'left'),
      format: formatCell
    });
    const header = new TextRenderer({ font: `bold ${size} ${family}`, textColor: text });
    const rowHeader = new TextRenderer({ font: `${size} ${family}`, textColor: muted, horizontalAlignment: 'right' });
    this.grid.cellRenderers = new RendererMap(
      { body, 'column-header': header, 'corner-header': header, 'row-header': rowHeader },
      body
    );
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._inflight?.abort();
    this._inflight = null;
    this._resizeObserver?.disconnect();
    this._resizeObserver = null;
    super.dispose();
  }

  private _setBusy(busy: boolean): void {
    this._busy.hidden = !busy;
    this._button.disabled = busy;
    this._button.textContent = busy ? 'Searching…' : 'Search';
    this.node.setAttribute('aria-busy', String(busy));
    this.toggleClass('jp-mod-busy', busy);
  }

  private _showResult(result: QueueResultT): void {
    this._lastResult = result;
    this._intro.hidden = true;
    const table = queueTable(result);
    this.model.setTable(table);
    this._fitColumns();

    this._count.textContent = `Showing ${result.count_returned} of ${result.count_total_matching} projects`;
    this._count.dataset.countReturned = String(result.count_returned);
    this._count.dataset.countTotal = String(result.count_total_matching);
    this._count.hidden = false;

    this._hint.textContent = table.note ? `Time to power: ${table.note}` : '';
    this._hint.hidden = !table.note;

    this._citation.textContent = table.citation ?? '';
    this._citation.hidden = !table.citation;
  }

  private _showError(err: unknown): void {
    if (err === null) {
      this._error.textContent = '';
      this._error.hidden = true;
      delete this._error.dataset.kind;
      delete this._error.dataset.param;
      return;
    }
    let message = err instanceof Error ? err.message : String(err);
    if (err instanceof DchubError) {
      this._error.dataset.kind = err.kind;
      if (err.kind === 'network') {
        message += '. Check the DC Hub base URL in Settings and that the service accepts requests from this page (CORS).';
      }
    }
    if (err instanceof ValidationError) this._error.dataset.param = err.param;
    else delete this._error.dataset.param;
    this._error.textContent = message;
    this._error.hidden = false;
  }

  /** Sizes each column to its header and the first rows' text, within sane bounds. */
  private _fitColumns(): void {
    const { columns, rows } = this.model.table;
    const sample = rows.slice(0, 100);
    const measure = textMeasurer(this._font);
    const headerMeasure = textMeasurer(`bold ${this._font}`);
    columns.forEach((name, j) => {
      let width = headerMeasure(name);
      for (const row of sample) width = Math.max(width, measure(formatCell({ value: row[j] })));
      this.grid.resizeColumn('body', j, Math.min(280, Math.max(48, Math.ceil(width) + 16)));
    });
    this.grid.resizeColumn('row-header', 0, Math.max(32, Math.ceil(measure(String(rows.length))) + 16));
  }
}

/** Text width in px for a canvas font, with a rough fallback where canvas is unavailable. */
function textMeasurer(font: string): (text: string) => number {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return (text) => text.length * 8;
  ctx.font = font;
  return (text) => ctx.measureText(text).width;
}

/** Numbers with up to 4 decimals (coordinates), everything else as text. */
function formatCell({ value }: { value: unknown }): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e4) / 1e4);
  return String(value);
}

/** A number field's value for core validation: '' when blank, the text otherwise. */
function readNumber(input: HTMLInputElement, param: string): string {
  // A number input reports unparseable text as '' with badInput set; say so instead of ignoring it.
  if (input.validity.badInput) throw new ValidationError(param, 'must be a number');
  return input.value;
}

function numberInput(name: string, placeholder: string): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'number';
  input.name = name;
  input.step = 'any';
  input.placeholder = placeholder;
  input.className = 'jp-DCHub-input';
  return input;
}

function field(label: string, control: HTMLElement): HTMLLabelElement {
  const el = document.createElement('label');
  el.className = 'jp-DCHub-field';
  const span = document.createElement('span');
  span.className = 'jp-DCHub-label';
  span.textContent = label;
  el.append(span, control);
  return el;
}

function div(className: string, text: string): HTMLElement {
  const el = document.createElement('div');
  el.className = className;
  el.textContent = text;
  return el;
}
