/**
 * Dates as Excel dates: ISO 8601 dates and timestamps from the service become Excel serial numbers
 * (days since 1899-12-30, the fraction the time of day, in UTC) so that date arithmetic, sorting
 * and date formats work. The pane's "Dates as text" setting keeps the ISO text instead.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MS_PER_DAY = 86_400_000;
/** 1899-12-30T00:00Z: serial 0 of Excel's 1900 date system (serials from 61, 1900-03-01, on are exact). */
const EPOCH_MS = Date.UTC(1899, 11, 30);
const FIRST_EXACT_MS = Date.UTC(1900, 2, 1);

export type DateMode = 'serial' | 'text';
let mode: DateMode = 'serial';

/** Set from the add-in settings whenever the client is read (see serviceClient). */
export function useDateMode(m: DateMode | undefined): void {
  mode = m === 'text' ? 'text' : 'serial';
}

/** The serial number of an ISO date or timestamp (no zone = UTC), or undefined for other text. */
export function excelSerial(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const zone = m[8] ?? 'Z';
  const iso =
    m[4] === undefined
      ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`
      : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || ms < FIRST_EXACT_MS) return undefined;
  return Math.round(((ms - EPOCH_MS) / MS_PER_DAY) * 1e8) / 1e8;
}

/** A cell value with dates as serial numbers (unless the pane asks for text). */
export function asExcelDate<T>(v: T): T | number {
  if (mode === 'text' || typeof v !== 'string' || v.length > 40) return v;
  return excelSerial(v) ?? v;
}
