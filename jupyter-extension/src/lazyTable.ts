/** Tables whose rows are shaped on demand (pure: no DOM, no Lumino; tested under Node). */
import { cell, queueTable, type Cell, type QueueResultT, type Table } from '@dchub/core';
import { lazyRows } from './tableView';

/**
 * A table whose rows are shaped only when read: painting the first screen of 50,000 records shapes
 * the visible rows, not all of them (sorting and filtering shape each row once, then keep it).
 */
export function lazyRecordsTable(
  records: readonly Record<string, unknown>[],
  columns: readonly string[],
  extra: Omit<Table, 'columns' | 'rows'> = {}
): Table {
  const cols = [...columns];
  return {
    columns: cols,
    rows: lazyRows(records.length, (i) => {
      const r = records[i];
      const row = new Array<Cell>(cols.length);
      for (let j = 0; j < cols.length; j++) row[j] = cell(r[cols[j]]);
      return row;
    }),
    ...extra
  };
}

/** The queue survivors as core's `queueTable` shapes them (columns, citation, as-of, hint), rows on demand. */
export function lazyQueueTable(result: QueueResultT): Table {
  const { columns, rows: _none, ...extra } = queueTable({ ...result, results: [] });
  const records = result.results.map((r) =>
    r.lng === undefined || r.lng === null ? { ...r, lng: (r as { lon?: number | null }).lon } : r
  );
  return lazyRecordsTable(records, columns, extra);
}
