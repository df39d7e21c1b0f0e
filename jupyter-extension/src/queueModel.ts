import type { Cell, Table } from '@dchub/core';
import { DataModel } from '@lumino/datagrid';

const EMPTY: Table = { columns: [], rows: [] };

/**
 * A read-only grid model over any core `Table` (queue survivors today): one header row with the column names, the
 * table rows as the body, and 1-based row numbers in the row header. Cells are painted by the
 * canvas grid, so no DOM table is built however many rows there are.
 */
export class QueueModel extends DataModel {
  private _table: Table = EMPTY;

  constructor(table?: Table) {
    super();
    if (table) this._table = table;
  }

  /** The table being shown. */
  get table(): Table {
    return this._table;
  }

  /** Replaces the table and tells the grid to redraw everything. */
  setTable(table: Table | null): void {
    this._table = table ?? EMPTY;
    this.emitChanged({ type: 'model-reset' });
  }

  rowCount(region: DataModel.RowRegion): number {
    return region === 'body' ? this._table.rows.length : 1;
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body' ? this._table.columns.length : 1;
  }

  data(region: DataModel.CellRegion, row: number, column: number): Cell | null {
    switch (region) {
      case 'body':
        return this._table.rows[row]?.[column] ?? null;
      case 'column-header':
        return this._table.columns[column] ?? null;
      case 'row-header':
        return row + 1;
      case 'corner-header':
        return '#';
      default:
        return null;
    }
  }

  metadata(region: DataModel.CellRegion, row: number, column: number): DataModel.Metadata {
    if (region !== 'body') return DataModel.emptyMetadata;
    const v = this._table.rows[row]?.[column];
    return typeof v === 'number' ? NUMBER : DataModel.emptyMetadata;
  }
}

const NUMBER: DataModel.Metadata = Object.freeze({ type: 'number' });
