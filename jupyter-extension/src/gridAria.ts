/**
 * The canvas grid for assistive technology (issue 28): an ARIA grid kept in step with the canvas.
 * The grid's viewport (where Lumino listens for keys) becomes a focusable `role="grid"` with the
 * table's size (`aria-rowcount`, `aria-colcount`) and `aria-activedescendant` on the cursor cell;
 * a visually hidden mirror inside it holds the header row (with `aria-sort`) and the rows in view
 * plus the cursor's row, each cell named "column: value". Screen readers read what is drawn.
 */
import type { DataGrid } from '@lumino/datagrid';
import { BasicKeyHandler } from '@lumino/datagrid';
import { cellText } from './tableView';
import type { TableModel } from './tableModel';

let NEXT_ID = 0;

/** The `aria-sort` of a column under the model's view. */
export function ariaSort(model: TableModel, column: number): 'ascending' | 'descending' | 'none' {
  const { sortColumn, descending } = model.view;
  return sortColumn === column ? (descending ? 'descending' : 'ascending') : 'none';
}

/** What a cell announces: its column's name and its value ("blank" for none). */
export function cellName(column: string, value: unknown): string {
  const text = cellText(value as never);
  return `${column}: ${text === '' ? 'blank' : text}`;
}

/**
 * Lumino's keys plus a cell cursor in row selection: Left and Right move the cursor's column (the
 * row stays selected), and S sorts by the cursor's column (the header click's cycle). Tab leaves the
 * grid (Lumino's handler would keep it, moving the cursor: a keyboard trap).
 */
export class CellKeyHandler extends BasicKeyHandler {
  onKeyDown(grid: DataGrid, event: KeyboardEvent): void {
    if (event.key === 'Tab') return;
    const model = grid.selectionModel;
    const data = grid.dataModel;
    const plain = !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (model && data && plain && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      event.stopPropagation();
      const rows = data.rowCount('body');
      const last = data.columnCount('body') - 1;
      if (rows <= 0 || last < 0) return;
      const row = Math.max(0, model.cursorRow);
      const step = event.key === 'ArrowLeft' ? -1 : 1;
      const column = Math.max(0, Math.min(last, Math.max(0, model.cursorColumn) + step));
      model.select({ r1: row, c1: column, r2: row, c2: column, cursorRow: row, cursorColumn: column, clear: 'all' });
      grid.scrollToCell(row, column);
      return;
    }
    if (plain && (event.key === 's' || event.key === 'S') && model && 'toggleSort' in (data ?? {})) {
      event.preventDefault();
      event.stopPropagation();
      (data as TableModel).toggleSort(Math.max(0, model.cursorColumn));
      return;
    }
    super.onKeyDown(grid, event);
  }
}

/** The ARIA grid over a canvas grid; `update()` after anything that may change what is in view. */
export class GridAria {
  readonly mirror: HTMLDivElement;
  private readonly _id = `jp-DCHub-grid-${++NEXT_ID}`;
  private _key = '';
  private _frame = 0;

  constructor(
    private readonly grid: DataGrid,
    private readonly model: TableModel,
    label: string
  ) {
    const node = grid.viewport.node;
    node.setAttribute('role', 'grid');
    node.setAttribute('aria-label', label);
    node.setAttribute('aria-readonly', 'true');
    node.tabIndex = 0;
    node.style.outline = '';
    node.classList.add('jp-DCHub-grid-focus');
    this.mirror = document.createElement('div');
    this.mirror.className = 'jp-DCHub-sr-only';
    node.appendChild(this.mirror);
    node.addEventListener('focus', () => this._ensureCursor());
  }

  /** Rebuilds the mirror on the next frame (once per frame however often it is asked). */
  update(): void {
    if (this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this._render();
    });
  }

  /** Rebuilds the mirror now. */
  render(): void {
    this._render();
  }

  /** A keyboard user arriving on the grid lands on a cell: the first, unless a cursor is already set. */
  private _ensureCursor(): void {
    const sel = this.grid.selectionModel;
    if (!sel || !sel.isEmpty || this.model.rowCount('body') <= 0) return;
    sel.select({ r1: 0, c1: 0, r2: 0, c2: 0, cursorRow: 0, cursorColumn: 0, clear: 'all' });
  }

  /** The body rows in view (first and last), from the scroll offset and the default row height. */
  private _inView(rows: number): [number, number] {
    const h = this.grid.defaultSizes.rowHeight || 22;
    const first = Math.max(0, Math.floor(this.grid.scrollY / h));
    const count = Math.ceil(Math.max(this.grid.pageHeight, h) / h) + 1;
    return [Math.min(first, Math.max(0, rows - 1)), Math.min(rows - 1, first + count - 1)];
  }

  private _render(): void {
    const { model, grid } = this;
    const columns = model.table.columns;
    const rows = model.rowCount('body');
    const sel = grid.selectionModel;
    const cursor = sel && !sel.isEmpty ? { row: sel.cursorRow, column: sel.cursorColumn } : null;
    const [first, last] = rows > 0 ? this._inView(rows) : [0, -1];
    const v = model.view;
    const key = [rows, columns.length, first, last, cursor?.row, cursor?.column, v.sortColumn, v.descending, v.filter]
      .concat(rows ? [String(model.data('body', 0, 0))] : [])
      .join('|');
    const node = grid.viewport.node;
    node.setAttribute('aria-rowcount', String(rows + 1));
    node.setAttribute('aria-colcount', String(columns.length));
    if (key === this._key) return;
    this._key = key;
    const header = this._row(1);
    columns.forEach((name, c) => {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'columnheader');
      cell.setAttribute('aria-colindex', String(c + 1));
      cell.setAttribute('aria-sort', ariaSort(model, c));
      cell.textContent = name;
      header.appendChild(cell);
    });
    const shown: number[] = [];
    for (let r = first; r <= last; r++) shown.push(r);
    if (cursor && cursor.row >= 0 && cursor.row < rows && !shown.includes(cursor.row)) {
      shown.push(cursor.row);
      shown.sort((a, b) => a - b);
    }
    const body = shown.map((r) => {
      const row = this._row(r + 2);
      columns.forEach((name, c) => {
        const cell = document.createElement('div');
        cell.setAttribute('role', 'gridcell');
        cell.setAttribute('aria-colindex', String(c + 1));
        const value = model.data('body', r, c);
        cell.setAttribute('aria-label', cellName(name, value));
        cell.textContent = cellText(value);
        if (cursor && cursor.row === r && cursor.column === c) {
          cell.id = `${this._id}-cursor`;
          cell.setAttribute('aria-selected', 'true');
        }
        row.appendChild(cell);
      });
      return row;
    });
    this.mirror.replaceChildren(header, ...body);
    if (cursor && cursor.row >= 0 && cursor.row < rows)
      node.setAttribute('aria-activedescendant', `${this._id}-cursor`);
    else node.removeAttribute('aria-activedescendant');
  }

  private _row(index: number): HTMLDivElement {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    row.setAttribute('aria-rowindex', String(index));
    return row;
  }

  dispose(): void {
    if (this._frame) cancelAnimationFrame(this._frame);
    this.mirror.remove();
  }
}
