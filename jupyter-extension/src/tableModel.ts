import type { Cell, Table } from '@dchub/core';
import { DataModel } from '@lumino/datagrid';
import { DEFAULT_VIEW, nextSort, pickRows, searchText, viewRows, type ViewSpec } from './tableView';

const EMPTY: Table = { columns: [], rows: [] };
const NUMBER: DataModel.Metadata = Object.freeze({ type: 'number' });
const CHANGED: DataModel.Metadata = Object.freeze({ changed: true });
const CHANGED_NUMBER: DataModel.Metadata = Object.freeze({ type: 'number', changed: true });

/**
 * A read-only grid model over any core `Table`: one header row with the column names (with a
 * sort arrow on the sorted one), the filtered and sorted rows as the body, and 1-based row
 * numbers in the row header. Rows can be marked changed (metadata `changed: true`) so a
 * renderer can highlight them. Cells are painted by the canvas grid, so no DOM table is built
 * however many rows there are.
 */
export class TableModel extends DataModel {
  private _table: Table = EMPTY;
  private _view: ViewSpec = DEFAULT_VIEW;
  private _rows: number[] = [];
  private _changedKeys = new Set<string>();
  private _keyColumn: number | null = null;
  /** Source row → shown row, built when first asked after each refresh. */
  private _viewOf: Map<number, number> | null = null;

  constructor(table?: Table, options: { keyColumn?: string } = {}) {
    super();
    this._keyName = options.keyColumn;
    if (table) this.setTable(table);
  }

  private readonly _keyName: string | undefined;

  /** The whole table (unfiltered, in source order). */
  get table(): Table {
    return this._table;
  }

  /** The rows as shown (filtered and sorted), with citation, as-of and note kept. */
  get visibleTable(): Table {
    return pickRows(this._table, this._rows);
  }

  /** The current sort and filter. */
  get view(): ViewSpec {
    return this._view;
  }

  /** The source index of a shown row. */
  sourceRow(viewRow: number): number | undefined {
    return this._rows[viewRow];
  }

  /** Where a source row is shown (undefined when the filter hides it). */
  viewRow(sourceRow: number): number | undefined {
    if (!this._viewOf) {
      this._viewOf = new Map();
      this._rows.forEach((src, i) => this._viewOf!.set(src, i));
    }
    return this._viewOf.get(sourceRow);
  }

  /** The source indices of the shown rows, in source order (what a chart of the shown rows draws). */
  visibleSourceRows(): number[] {
    return [...this._rows].sort((a, b) => a - b);
  }

  /** Keys (values of the key column) of the rows marked changed. */
  get changedKeys(): string[] {
    return [...this._changedKeys];
  }

  /** Replaces the table (keeping sort and filter) and redraws. `changed` marks rows by key column. */
  setTable(table: Table | null, changed: Iterable<string> = []): void {
    this._table = table ?? EMPTY;
    this._keyColumn = this._keyName ? this._table.columns.indexOf(this._keyName) : -1;
    if (this._keyColumn < 0) this._keyColumn = null;
    if (this._view.sortColumn !== null && this._view.sortColumn >= this._table.columns.length) {
      this._view = { ...this._view, sortColumn: null };
    }
    this._changedKeys = new Set(changed);
    this._refresh();
    this._prepareSearch();
  }

  /**
   * Builds the filter's search text while the browser is idle after the first paint, so the
   * first keystroke in the filter box only searches (a user cannot type within that time).
   */
  private _prepareSearch(): void {
    const table = this._table;
    if (!table.rows.length) return;
    const run = () => {
      if (this._table === table) searchText(table);
    };
    const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
      .requestIdleCallback;
    if (idle) idle(run, { timeout: 1000 });
    else setTimeout(run, 0);
  }

  /** Sets the text filter. */
  setFilter(filter: string): void {
    this._view = { ...this._view, filter };
    this._refresh();
  }

  /** Sorts by a column (the header-click cycle: ascending, descending, unsorted). */
  toggleSort(column: number): void {
    this._view = nextSort(this._view, column);
    this._refresh();
  }

  /** Sets sort and filter at once. */
  setView(view: ViewSpec): void {
    this._view = { ...view };
    this._refresh();
  }

  private _refresh(): void {
    this._rows = viewRows(this._table, this._view);
    this._viewOf = null;
    this.emitChanged({ type: 'model-reset' });
  }

  private _isChanged(viewRow: number): boolean {
    if (this._keyColumn === null || !this._changedKeys.size) return false;
    const src = this._rows[viewRow];
    const key = src === undefined ? undefined : this._table.rows[src]?.[this._keyColumn];
    return key !== undefined && this._changedKeys.has(String(key));
  }

  rowCount(region: DataModel.RowRegion): number {
    return region === 'body' ? this._rows.length : 1;
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body' ? this._table.columns.length : 1;
  }

  data(region: DataModel.CellRegion, row: number, column: number): Cell | null {
    switch (region) {
      case 'body': {
        const src = this._rows[row];
        return src === undefined ? null : (this._table.rows[src]?.[column] ?? null);
      }
      case 'column-header': {
        const name = this._table.columns[column];
        if (name === undefined) return null;
        return this._view.sortColumn === column ? `${name} ${this._view.descending ? '▼' : '▲'}` : name;
      }
      case 'row-header':
        return row + 1;
      case 'corner-header':
        return '#';
      default:
        return null;
    }
  }

  metadata(region: DataModel.CellRegion, row: number, column: number): DataModel.Metadata {
    if (region === 'row-header') return this._isChanged(row) ? CHANGED : DataModel.emptyMetadata;
    if (region !== 'body') return DataModel.emptyMetadata;
    const v = this.data('body', row, column);
    const changed = this._isChanged(row);
    if (typeof v === 'number') return changed ? CHANGED_NUMBER : NUMBER;
    return changed ? CHANGED : DataModel.emptyMetadata;
  }
}

/** The queue survivors' model (kept under its first name). */
export class QueueModel extends TableModel {}
