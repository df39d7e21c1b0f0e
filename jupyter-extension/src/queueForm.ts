import { QUEUE_ISOS, QUEUE_PREDICATES, QueueFilters, type QueueFiltersInput, type QueuePredicate } from '@dchub/core';
import {
  button,
  checkbox,
  CHECK_FIELD,
  field,
  numberInput,
  readNumber,
  select,
  submitForm,
  textInput,
  WIDE_FIELD
} from './dom';
import { formNumber, pythonCall } from './pycode';

/** How the form edits a predicate: the ISO list, a number box, a text box or a checkbox. */
export type QueueControlKind = 'isos' | 'number' | 'text' | 'check';

/**
 * The form's presentation of each of core's queue predicates (`QUEUE_PREDICATES`; typed by them, so
 * a predicate core adds or renames fails the build here): its label, control and placeholder.
 */
export const QUEUE_CONTROLS = {
  iso: { label: 'ISO', kind: 'isos' },
  min_mw: { label: 'Minimum MW', kind: 'number', placeholder: 'any' },
  max_ttp_months: { label: 'Max time to power (months)', kind: 'number', placeholder: 'any' },
  fuel_type: { label: 'Fuel type', kind: 'text', placeholder: 'e.g. gas, nuclear' },
  status: { label: 'Status', kind: 'text', placeholder: 'active' },
  baseload_only: { label: 'Baseload only', kind: 'check' },
  max_fiber_km: { label: 'Max fiber distance (km)', kind: 'number', placeholder: 'any' },
  geocoded_only: { label: 'Geocoded only', kind: 'check' },
  limit: { label: 'Rows (limit)', kind: 'number', placeholder: '200' }
} as const satisfies Record<QueuePredicate, { label: string; kind: QueueControlKind; placeholder?: string }>;

type ValueOf<K extends QueueControlKind> = K extends 'isos' ? string[] : K extends 'check' ? boolean : string;

/**
 * The queue form's values as typed, one per predicate (blank means "no limit"): the ISOs (empty for
 * all), numbers and text as typed (`status` blank is "active"; `limit` blank the settings' default),
 * the checkboxes.
 */
export type QueueQuery = { -readonly [P in QueuePredicate]: ValueOf<(typeof QUEUE_CONTROLS)[P]['kind']> };

/** The predicate whose blank takes the panel's setting (rows per search) rather than core's default. */
const LIMIT = 'limit' satisfies QueuePredicate;

/** What core does with a predicate left out (status active, limit 200, no baseload or geocoded filter). */
const CORE_DEFAULTS: Partial<Record<QueuePredicate, unknown>> = QueueFilters.parse({});

type Control = HTMLInputElement | HTMLSelectElement;

/**
 * The sidebar form of the queue search: each of core's predicates (spec §4.2) as a control, read as
 * typed (`query`) or as core's filter input (`filters`), which core validates and names.
 */
export class QueueForm {
  readonly node: HTMLFormElement;
  readonly button: HTMLButtonElement;
  private readonly _controls = new Map<QueuePredicate, Control>();

  constructor(onSubmit: () => void) {
    this.node = submitForm('jp-DCHub-form', onSubmit);
    const fields: HTMLElement[] = [];
    const checks: HTMLElement[] = [];
    for (const p of QUEUE_PREDICATES) {
      const c: { label: string; kind: QueueControlKind; placeholder?: string } = QUEUE_CONTROLS[p];
      let control: Control;
      if (c.kind === 'isos') {
        control = select(p, QUEUE_ISOS, { className: 'jp-DCHub-input jp-DCHub-iso', multiple: true });
        control.size = 4;
        control.title = 'None selected: all ISOs. Ctrl/Cmd-click to pick several.';
        fields.push(field(c.label, control, WIDE_FIELD));
      } else if (c.kind === 'check') {
        control = checkbox(p);
        checks.push(field(c.label, control, CHECK_FIELD));
      } else {
        control =
          c.kind === 'number'
            ? numberInput(p, c.placeholder ?? '', {
                min: p === LIMIT ? '1' : '0',
                ...(p === LIMIT ? { step: '1' } : {})
              })
            : textInput(p, c.placeholder ?? '');
        fields.push(field(c.label, control));
      }
      this._controls.set(p, control);
    }
    // "active" and "all" offered for the status box.
    const statusOptions = document.createElement('datalist');
    statusOptions.id = 'jp-DCHub-status-options';
    for (const s of ['active', 'all']) statusOptions.append(new Option(s, s));
    this._controls.get('status')?.setAttribute('list', statusOptions.id);
    this.button = button('jp-DCHub-search', 'Search', undefined, 'submit');
    this.node.append(...fields, statusOptions, ...checks, this.button);
  }

  /** The form's current values. */
  get query(): QueueQuery {
    const out: Record<string, string | string[] | boolean> = {};
    for (const p of QUEUE_PREDICATES) {
      const el = this._controls.get(p)!;
      const kind = QUEUE_CONTROLS[p].kind;
      out[p] =
        kind === 'isos'
          ? [...(el as HTMLSelectElement).selectedOptions].map((o) => o.value)
          : kind === 'check'
            ? (el as HTMLInputElement).checked
            : el.value;
    }
    return out as QueueQuery;
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<QueueQuery>) {
    for (const p of QUEUE_PREDICATES) {
      const v = q[p];
      if (v === undefined) continue;
      const el = this._controls.get(p)!;
      if (Array.isArray(v)) {
        const wanted = new Set(v.map((s) => s.trim().toUpperCase()));
        for (const o of (el as HTMLSelectElement).options) o.selected = wanted.has(o.value);
      } else if (typeof v === 'boolean') (el as HTMLInputElement).checked = v;
      else el.value = v;
    }
  }

  /** Core's filter input for the form's values (a number box holding text throws, naming it). */
  filters(defaultLimit: number): QueueFiltersInput {
    const q = this.query;
    const out: Record<string, unknown> = {};
    for (const p of QUEUE_PREDICATES) {
      const v = q[p];
      const kind = QUEUE_CONTROLS[p].kind;
      if (kind === 'number') out[p] = readNumber(this._controls.get(p) as HTMLInputElement, p) || undefined;
      else if (Array.isArray(v)) out[p] = v.length ? v : undefined;
      else out[p] = typeof v === 'string' ? v.trim() || undefined : v;
    }
    out[LIMIT] ??= defaultLimit;
    return out;
  }
}

/** `hub.queue(...)` for a search as typed (core's defaults left out, as the Python API has them). */
export function queuePythonCall(q: QueueQuery, defaultLimit: number): string {
  const args: Record<string, unknown> = {};
  for (const p of QUEUE_PREDICATES) {
    const v = q[p];
    const kind = QUEUE_CONTROLS[p].kind;
    const typed = Array.isArray(v)
      ? v.length
        ? v.join(',')
        : undefined
      : typeof v === 'boolean'
        ? v
        : kind === 'number'
          ? formNumber(v)
          : v.trim();
    const value = p === LIMIT ? (typed ?? defaultLimit) : typed;
    args[p] = value === CORE_DEFAULTS[p] ? undefined : value;
  }
  return pythonCall('queue', args);
}
