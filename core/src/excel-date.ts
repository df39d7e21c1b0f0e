/**
 * Excel's date numbers: days since 1899-12-30 (serial 0 of the 1900 date system), the fraction the
 * time of day, in UTC. Spilled tables and cards both give dates this way, so that date arithmetic,
 * sorting and date formats work.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MS_PER_DAY = 86_400_000;
const EPOCH_MS = Date.UTC(1899, 11, 30);
/** Serials from 61 (1900-03-01) on are exact; Excel's fictitious 1900-02-29 makes earlier ones off by one. */
const FIRST_EXACT_MS = Date.UTC(1900, 2, 1);

/** The serial number of an instant (ms since 1970), or undefined before 1900-03-01 or when not finite. */
export function serialOfTime(ms: number): number | undefined {
  if (!Number.isFinite(ms) || ms < FIRST_EXACT_MS) return undefined;
  return Math.round(((ms - EPOCH_MS) / MS_PER_DAY) * 1e8) / 1e8;
}

/** The serial number of an ISO 8601 date or timestamp (no zone = UTC), or undefined for other text. */
export function excelSerial(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const zone = m[8] ?? 'Z';
  const iso =
    m[4] === undefined
      ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`
      : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`;
  return serialOfTime(Date.parse(iso));
}

/** Whether ISO text names a day without a time of day (`2026-11-21`). */
export const isDateOnly = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text);
