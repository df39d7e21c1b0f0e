import {
  BasicMouseHandler,
  BasicSelectionModel,
  type CellRenderer,
  DataGrid,
  RendererMap,
  TextRenderer
} from '@lumino/datagrid';
import type { Cell } from '@dchub/core';
import { Widget } from '@lumino/widgets';
import { CellKeyHandler, GridAria } from './gridAria';
import { cellText, verdictColor } from './tableView';
import { TableModel } from './tableModel';

/** Pixels either side of a column edge that stay a resize handle rather than a sort click. */
const RESIZE_MARGIN = 6;

/** Mouse handling of the basic grid, plus sorting when a column header is clicked. */
export class SortingMouseHandler extends BasicMouseHandler {
  onMouseDown(grid: DataGrid, event: MouseEvent): void {
    const hit = grid.hitTest(event.clientX, event.clientY);
    const model = grid.dataModel;
    if (
      event.button === 0 &&
      hit.region === 'column-header' &&
      model instanceof TableModel &&
      hit.x > RESIZE_MARGIN &&
      hit.x < hit.width - RESIZE_MARGIN
    ) {
      model.toggleSort(hit.column);
      event.preventDefault();
      return;
    }
    super.onMouseDown(grid, event);
  }
}

export interface TableGridOptions {
  /** Column whose text cells are painted in verdict colours (BUILD, CAUTION, AVOID). */
  verdictColumn?: string;
  className: string;
  /** The grid's accessible name (what a screen reader calls it); default "Results". */
  label?: string;
}

/**
 * A themed, sortable canvas grid over a `TableModel`: rows the model marks changed get a
 * highlight, and an optional verdict column is coloured. It re-measures itself whenever its
 * box changes size (flex layout, sidebar drag), not only on Lumino resize messages. An ARIA grid
 * (GridAria) mirrors the rows in view and the cell cursor, which the arrow keys move.
 */
export class TableGrid extends DataGrid {
  readonly model: TableModel;
  private _font = '13px sans-serif';
  private _resizeObserver: ResizeObserver | null;
  private readonly _verdictColumn: string | undefined;
  readonly aria: GridAria;

  constructor(model: TableModel, options: TableGridOptions) {
    super({
      defaultSizes: { rowHeight: 22, columnWidth: 96, rowHeaderWidth: 44, columnHeaderHeight: 24 },
      headerVisibility: 'all'
    });
    this.model = model;
    this._verdictColumn = options.verdictColumn;
    this.addClass('jp-DCHub-grid-base');
    this.addClass(options.className);
    this.dataModel = model;
    this.keyHandler = new CellKeyHandler();
    this.mouseHandler = new SortingMouseHandler();
    this.selectionModel = new BasicSelectionModel({ dataModel: model, selectionMode: 'row' });
    this.aria = new GridAria(this, model, options.label ?? 'Results');
    model.changed.connect(() => this.aria.update(), this);
    // The cursor cell is painted (row selection draws no cursor of its own) and announced.
    this.selectionModel.changed.connect(() => {
      this.repaintContent();
      this.aria.update();
    });
    this._resizeObserver = new ResizeObserver(() => {
      if (this.isVisible) this.processMessage(Widget.ResizeMessage.UnknownSize);
    });
    this._resizeObserver.observe(this.node);
    this.updateTheme();
  }

  /** Source-table indices of the selected rows (in display order, without duplicates). */
  selectedSourceRows(): number[] {
    const out = new Set<number>();
    const sel = this.selectionModel;
    if (!sel) return [];
    for (const s of sel.selections()) {
      for (let r = Math.min(s.r1, s.r2); r <= Math.max(s.r1, s.r2); r++) {
        const src = this.model.sourceRow(r);
        if (src !== undefined) out.add(src);
      }
    }
    return [...out];
  }

  /**
   * Selects these source rows (those the filter shows), replacing the selection, and scrolls the
   * first into view. Adjacent rows become one range, so the selection changes a few times at most.
   */
  selectSourceRows(rows: readonly number[]): void {
    const sel = this.selectionModel;
    if (!sel) return;
    const shown = rows
      .map((r) => this.model.viewRow(r))
      .filter((r): r is number => r !== undefined)
      .sort((a, b) => a - b);
    sel.clear();
    const last = this.model.columnCount('body') - 1;
    for (let i = 0; i < shown.length;) {
      let j = i;
      while (j + 1 < shown.length && shown[j + 1] === shown[j] + 1) j++;
      sel.select({ r1: shown[i], c1: 0, r2: shown[j], c2: last, cursorRow: shown[i], cursorColumn: 0, clear: 'none' });
      i = j + 1;
    }
    if (shown.length) this.scrollToRow(shown[0]);
  }

  /** Re-reads the JupyterLab theme's colours and fonts into the canvas grid. */
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
    const changedBg = 'rgba(255, 193, 7, 0.28)';

    this.style = {
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
    const changed = (config: CellRenderer.CellConfig) => (config.metadata['changed'] ? changedBg : '');
    const verdictColumn = this._verdictColumn;
    const isVerdict = (config: CellRenderer.CellConfig) =>
      verdictColumn !== undefined && this.model.table.columns[config.column] === verdictColumn;
    const cursorBg = 'rgba(33, 150, 243, 0.35)';
    const isCursor = (config: CellRenderer.CellConfig) => {
      const sel = this.selectionModel;
      return !!sel && !sel.isEmpty && sel.cursorRow === config.row && sel.cursorColumn === config.column;
    };
    const body = new TextRenderer({
      font: (config) => (isVerdict(config) && verdictColor(config.value) ? `bold ${this._font}` : this._font),
      textColor: (config) => (isVerdict(config) ? (verdictColor(config.value) ?? text) : text),
      backgroundColor: (config) => (isCursor(config) ? cursorBg : changed(config)),
      horizontalAlignment: ({ value }) => (typeof value === 'number' ? 'right' : 'left'),
      format: ({ value }) => cellText(value as never)
    });
    const header = new TextRenderer({ font: `bold ${size} ${family}`, textColor: text });
    const rowHeader = new TextRenderer({
      font: `${size} ${family}`,
      textColor: muted,
      backgroundColor: changed,
      horizontalAlignment: 'right'
    });
    this.cellRenderers = new RendererMap(
      { body, 'column-header': header, 'corner-header': header, 'row-header': rowHeader },
      body
    );
  }

  /** Sizes each column to its header and the first rows' text, within sane bounds. */
  fitColumns(): void {
    const { columns } = this.model.table;
    // The first 100 rows as shown (reading them through the model shapes no other row).
    const sample: Cell[][] = [];
    for (let r = 0; r < Math.min(100, this.model.rowCount('body')); r++) {
      const src = this.model.sourceRow(r);
      if (src !== undefined) sample.push(this.model.table.rows[src]);
    }
    const measure = textMeasurer(this._font);
    const headerMeasure = textMeasurer(`bold ${this._font}`);
    columns.forEach((name, j) => {
      let width = headerMeasure(`${name} ▼`);
      for (const row of sample) width = Math.max(width, measure(cellText(row[j])));
      this.resizeColumn('body', j, Math.min(280, Math.max(48, Math.ceil(width) + 16)));
    });
    this.resizeColumn('row-header', 0, Math.max(32, Math.ceil(measure(String(this.model.table.rows.length))) + 16));
  }

  /** Paints, then brings the ARIA grid in step with what is now in view (scrolling repaints). */
  protected paintContent(rx: number, ry: number, rw: number, rh: number): void {
    super.paintContent(rx, ry, rw, rh);
    this.aria?.update();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.aria.dispose();
    this._resizeObserver?.disconnect();
    this._resizeObserver = null;
    super.dispose();
  }
}

/** Text width in px for a canvas font, with a rough fallback where canvas is unavailable. */
function textMeasurer(font: string): (text: string) => number {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return (text) => text.length * 8;
  ctx.font = font;
  return (text) => ctx.measureText(text).width;
}
