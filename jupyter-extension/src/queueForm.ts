import { QUEUE_ISOS, type QueueFiltersInput } from '@dchub/core';
import { button, checkbox, CHECK_FIELD, field, numberInput, readNumber, select, submitForm, textInput, WIDE_FIELD } from './dom';
import { formNumber, pythonCall } from './pycode';

/** The queue form's values as typed (blank means "no limit"). */
export interface QueueQuery {
  /** ISOs (any of `QUEUE_ISOS`); empty for all. */
  iso: string[];
  min_mw: string;
  max_ttp_months: string;
  /** Fuel label substrings, comma separated. */
  fuel_type: string;
  /** "active" (default when blank), "all" or a status substring. */
  status: string;
  baseload_only: boolean;
  max_fiber_km: string;
  geocoded_only: boolean;
  /** Rows to return; blank uses the settings' default. */
  limit: string;
}

/**
 * The sidebar form of the queue search: every predicate of spec §4.2 as a control, read as typed
 * (`query`) or as core's filter input (`filters`), which core validates and names.
 */
export class QueueForm {
  readonly node: HTMLFormElement;
  readonly button: HTMLButtonElement;
  private readonly _iso: HTMLSelectElement;
  private readonly _minMw: HTMLInputElement;
  private readonly _maxTtp: HTMLInputElement;
  private readonly _fuel: HTMLInputElement;
  private readonly _status: HTMLInputElement;
  private readonly _baseload: HTMLInputElement;
  private readonly _maxFiber: HTMLInputElement;
  private readonly _geocoded: HTMLInputElement;
  private readonly _limit: HTMLInputElement;

  constructor(onSubmit: () => void) {
    this.node = submitForm('jp-DCHub-form', onSubmit);
    this._iso = select('iso', QUEUE_ISOS, { className: 'jp-DCHub-input jp-DCHub-iso', multiple: true });
    this._iso.size = 4;
    this._iso.title = 'None selected: all ISOs. Ctrl/Cmd-click to pick several.';
    this._minMw = numberInput('min_mw', 'any', { min: '0' });
    this._maxTtp = numberInput('max_ttp_months', 'any', { min: '0' });
    this._fuel = textInput('fuel_type', 'e.g. gas, nuclear');
    this._status = textInput('status', 'active');
    this._status.setAttribute('list', 'jp-DCHub-status-options');
    const statusOptions = document.createElement('datalist');
    statusOptions.id = 'jp-DCHub-status-options';
    for (const s of ['active', 'all']) statusOptions.append(new Option(s, s));
    this._baseload = checkbox('baseload_only');
    this._maxFiber = numberInput('max_fiber_km', 'any', { min: '0' });
    this._geocoded = checkbox('geocoded_only');
    this._limit = numberInput('limit', '200', { min: '1', step: '1' });
    this.button = button('jp-DCHub-search', 'Search', undefined, 'submit');
    this.node.append(
      field('ISO', this._iso, WIDE_FIELD),
      field('Minimum MW', this._minMw),
      field('Max time to power (months)', this._maxTtp),
      field('Fuel type', this._fuel),
      field('Status', this._status),
      statusOptions,
      field('Max fiber distance (km)', this._maxFiber),
      field('Rows (limit)', this._limit),
      field('Baseload only', this._baseload, CHECK_FIELD),
      field('Geocoded only', this._geocoded, CHECK_FIELD),
      this.button
    );
  }

  /** The form's current values. */
  get query(): QueueQuery {
    return {
      iso: [...this._iso.selectedOptions].map((o) => o.value),
      min_mw: this._minMw.value,
      max_ttp_months: this._maxTtp.value,
      fuel_type: this._fuel.value,
      status: this._status.value,
      baseload_only: this._baseload.checked,
      max_fiber_km: this._maxFiber.value,
      geocoded_only: this._geocoded.checked,
      limit: this._limit.value
    };
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<QueueQuery>) {
    if (q.iso !== undefined) {
      const wanted = new Set(q.iso.map((s) => s.trim().toUpperCase()));
      for (const o of this._iso.options) o.selected = wanted.has(o.value);
    }
    if (q.min_mw !== undefined) this._minMw.value = q.min_mw;
    if (q.max_ttp_months !== undefined) this._maxTtp.value = q.max_ttp_months;
    if (q.fuel_type !== undefined) this._fuel.value = q.fuel_type;
    if (q.status !== undefined) this._status.value = q.status;
    if (q.baseload_only !== undefined) this._baseload.checked = q.baseload_only;
    if (q.max_fiber_km !== undefined) this._maxFiber.value = q.max_fiber_km;
    if (q.geocoded_only !== undefined) this._geocoded.checked = q.geocoded_only;
    if (q.limit !== undefined) this._limit.value = q.limit;
  }

  /** Core's filter input for the form's values (a number box holding text throws, naming it). */
  filters(defaultLimit: number): QueueFiltersInput {
    const q = this.query;
    return {
      iso: q.iso.length ? q.iso : undefined,
      min_mw: readNumber(this._minMw, 'min_mw'),
      max_ttp_months: readNumber(this._maxTtp, 'max_ttp_months'),
      fuel_type: q.fuel_type.trim() || undefined,
      status: q.status.trim() || undefined,
      baseload_only: q.baseload_only,
      max_fiber_km: readNumber(this._maxFiber, 'max_fiber_km'),
      geocoded_only: q.geocoded_only,
      limit: readNumber(this._limit, 'limit') || defaultLimit
    };
  }
}

/** `hub.queue(...)` for a search as typed (defaults left out, as the Python API has them). */
export function queuePythonCall(q: QueueQuery, defaultLimit: number): string {
  const limit = formNumber(q.limit) ?? defaultLimit;
  return pythonCall('queue', {
    iso: q.iso.length ? q.iso.join(',') : undefined,
    min_mw: formNumber(q.min_mw),
    max_ttp_months: formNumber(q.max_ttp_months),
    fuel_type: q.fuel_type.trim(),
    status: q.status.trim() && q.status.trim() !== 'active' ? q.status.trim() : undefined,
    baseload_only: q.baseload_only,
    max_fiber_km: formNumber(q.max_fiber_km),
    geocoded_only: q.geocoded_only,
    limit: limit === 200 ? undefined : limit
  });
}
