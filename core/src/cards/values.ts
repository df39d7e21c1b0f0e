import { excelSerial, isDateOnly, serialOfTime } from '../excel-date.js';

/**
 * Excel's cell values as JSON (the `Excel.CellValue` shapes of ExcelApi 1.16 and 1.19), the part DC
 * Hub's cards use, and their builders. Pure data: the add-in returns these from custom functions;
 * nothing here needs Office.js.
 */

/** What the host Excel supports, read at run time (Office.context.requirements). */
export interface CardHost {
  /** ExcelApi 1.19: `numberFormat` on a Double and TwoColumn card sections; below it, FormattedNumber. */
  excelApi119: boolean;
}

/** Where a value comes from and under which licence (shown by Excel on the card). */
export interface Attribution {
  sourceText?: string;
  sourceAddress?: string;
  licenseText?: string;
  licenseAddress?: string;
}

/** Metadata of a value inside an entity's properties (Excel allows it only there). */
export interface PropertyMetadata {
  attribution?: Attribution[];
  sublabel?: string;
  excludeFrom?: { cardView?: boolean; autoComplete?: boolean; calcCompare?: boolean; dotNotation?: boolean };
}

interface Nested {
  propertyMetadata?: PropertyMetadata;
}
export interface StringValue extends Nested {
  type: 'String';
  basicValue: string;
}
export interface DoubleValue extends Nested {
  type: 'Double';
  basicValue: number;
  numberFormat?: string;
}
export interface FormattedNumberValue extends Nested {
  type: 'FormattedNumber';
  basicValue: number;
  numberFormat: string;
}
export interface BooleanValue extends Nested {
  type: 'Boolean';
  basicValue: boolean;
}

export type CardSectionLayout = 'List' | 'Table' | 'TwoColumn';
export interface CardSection {
  layout: CardSectionLayout;
  properties: string[];
  title?: string;
  collapsible?: boolean;
  collapsed?: boolean;
}

export interface EntityValue extends Nested {
  type: 'Entity';
  text: string;
  properties: Record<string, CardValue>;
  layouts: {
    card: { title: { property: string }; subTitle?: { property: string }; sections: CardSection[] };
    compact: { icon: string };
  };
  provider?: { description: string; logoTargetAddress?: string };
}

export type CardValue = StringValue | DoubleValue | FormattedNumberValue | BooleanValue | EntityValue;

/** The number formats cards carry (en-US codes, as Excel reads them). `%` is quoted: unquoted it multiplies by 100. */
export const FORMATS = {
  mw: '#,##0 "MW"',
  score: '0.0',
  months: '0.0 "months"',
  centsPerKwh: '0.00 "¢/kWh"',
  km: '#,##0.0 "km"',
  percent: '0.0"%"',
  count: '#,##0',
  degrees: '0.0000',
  dateTime: 'yyyy-mm-dd hh:mm',
  date: 'yyyy-mm-dd',
} as const;
export type FormatName = keyof typeof FORMATS;

/** The longest text a cell holds. */
const MAX_TEXT = 32_767;

/** A blank: what a null or withheld value is in a card, as in the tables (an empty text, never 0). */
export const blank = (): StringValue => ({ type: 'String', basicValue: '' });

export function text(v: unknown): StringValue {
  if (v === null || v === undefined) return blank();
  const s =
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : (JSON.stringify(v) ?? '');
  return { type: 'String', basicValue: s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s };
}

export const bool = (v: unknown): BooleanValue | StringValue =>
  typeof v === 'boolean' ? { type: 'Boolean', basicValue: v } : blank();

/** A number with its format: `numberFormat` on a Double at ExcelApi 1.19, the older FormattedNumber below it. */
export function number(
  v: unknown,
  format: FormatName,
  host: CardHost,
): DoubleValue | FormattedNumberValue | StringValue {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) return blank();
  const numberFormat = FORMATS[format];
  return host.excelApi119
    ? { type: 'Double', basicValue: n, numberFormat }
    : { type: 'FormattedNumber', basicValue: n, numberFormat };
}

/**
 * An ISO date or timestamp as an Excel date with a fixed format (UTC): `yyyy-mm-dd hh:mm`, or `yyyy-mm-dd` for a day.
 */
export function date(iso: unknown, host: CardHost): CardValue {
  if (typeof iso !== 'string') return blank();
  const serial = excelSerial(iso.trim());
  return serial === undefined ? text(iso) : number(serial, isDateOnly(iso.trim()) ? 'date' : 'dateTime', host);
}

/** An instant (ms since 1970) as an Excel date. */
export const dateOfTime = (ms: number, host: CardHost): CardValue => number(serialOfTime(ms), 'dateTime', host);

/** The same value with metadata (only values inside an entity's properties carry it). */
export function withMetadata<T extends CardValue>(v: T, meta: PropertyMetadata | undefined): T {
  return meta ? { ...v, propertyMetadata: meta } : v;
}

/**
 * One formatter per number of digits: toLocaleString with options builds a new one on every call (about a millisecond a
 * card).
 */
const FORMATTERS = new Map<number, Intl.NumberFormat>();

/** A number as the cards' text shows it (`65.8`, `2,568`). */
export function shown(v: unknown, digits: number): string | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  let f = FORMATTERS.get(digits);
  if (!f)
    FORMATTERS.set(
      digits,
      (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })),
    );
  return f.format(v);
}
