/**
 * Dates as Excel dates: ISO 8601 dates and timestamps from the service become Excel serial numbers
 * (core's excelSerial: days since 1899-12-30, the fraction the time of day, in UTC) so that date
 * arithmetic, sorting and date formats work. The pane's "Dates as text" setting keeps the ISO text instead.
 */
import { excelSerial } from '@dchub/core';

export { excelSerial };

export type DateMode = 'serial' | 'text';
let mode: DateMode = 'serial';

/** Set from the add-in settings whenever the client is read (see serviceClient). */
export function useDateMode(m: DateMode | undefined): void {
  mode = m === 'text' ? 'text' : 'serial';
}

/** A cell value with dates as serial numbers (unless the pane asks for text). */
export function asExcelDate<T>(v: T): T | number {
  if (mode === 'text' || typeof v !== 'string' || v.length > 40) return v;
  return excelSerial(v) ?? v;
}
