import { POINT_SELECTION, selectedRows, selectionStore } from '@dchub/core/charts';
import type { VegaView } from './chartRenderer';
import { sameRows } from './chartData';
import type { TableGrid } from './grid';

/**
 * One selection for a map and its grid: points picked on the map select their rows in the grid
 * (so "Score selected site" and "Rank selected" work from the map), rows selected in the grid are
 * highlighted on the map. The map's points carry the index of their chart row; `sourceRows` maps
 * chart rows to the grid's source rows. Each side is written only when it differs, so neither echoes.
 */
export class MapSelection {
  private readonly _chartRowOf = new Map<number, number>();
  private _applying = false;
  private _pending = 0;
  private _disposed = false;

  constructor(
    private readonly _grid: TableGrid,
    private readonly _view: VegaView,
    private readonly _sourceRows: readonly number[],
    /** Told after either side changed the selection (the view updates its selection line). */
    private readonly _onChange: () => void = () => undefined
  ) {
    _sourceRows.forEach((src, i) => this._chartRowOf.set(src, i));
    _view.addSignalListener(POINT_SELECTION.param, this._onPick);
    _grid.selectionModel?.changed.connect(this._onGrid);
    // The map opens showing the rows already selected in the grid.
    this._toMap();
  }

  /** The grid's source rows selected on the map now. */
  get mapRows(): number[] {
    return selectedRows(this._view.signal(POINT_SELECTION.param))
      .map((i) => this._sourceRows[i])
      .filter((r) => r !== undefined);
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this._view.removeSignalListener(POINT_SELECTION.param, this._onPick);
    this._grid.selectionModel?.changed.disconnect(this._onGrid);
  }

  /** Points picked on the map: the same rows selected in the grid. */
  private readonly _onPick = (_name: string, value: unknown): void => {
    const rows = selectedRows(value)
      .map((i) => this._sourceRows[i])
      .filter((r) => r !== undefined);
    if (this._disposed || sameRows(rows, this._grid.selectedSourceRows())) return;
    this._applying = true;
    try {
      this._grid.selectSourceRows(rows);
    } finally {
      this._applying = false;
    }
    this._onChange();
  };

  private readonly _onGrid = (): void => {
    if (this._applying || this._disposed) return;
    // A drag selects row by row: write the map once, on the next frame.
    cancelAnimationFrame(this._pending);
    this._pending = requestAnimationFrame(() => this._toMap());
  };

  /** The grid's selection highlighted on the map (rows the map does not draw are left out). */
  private _toMap(): void {
    if (this._disposed) return;
    const rows = this._grid
      .selectedSourceRows()
      .map((src) => this._chartRowOf.get(src))
      .filter((r): r is number => r !== undefined);
    const current = selectedRows(this._view.signal(POINT_SELECTION.param));
    if (sameRows(rows, current)) return;
    void this._view
      .data(POINT_SELECTION.store, selectionStore(rows))
      .runAsync()
      .then(() => this._onChange());
  }
}
