import { DchubError, RateLimitError, ValidationError, scalarText, type Table } from '@dchub/core';

/** A panel section whose current table can be exported or inserted into a notebook. */
export interface TableSource {
  /** Short name used in file names (`dchub-<kind>-<date>.csv`). */
  readonly kind: string;
  /** Human title for the citation. */
  readonly exportTitle: string;
  /** The table as currently shown (filtered and sorted), or null before any data. */
  exportTable(): Table | null;
  /** The Python API call that fetches this table again (`hub.queue(iso="PJM")`), or null. */
  pythonCall?(): PythonCall | null;
  /** The view's Table / Chart / Map switch, when it has charts. */
  readonly charts?: ShowSwitch;
}

/** What a view shows: its table, a chart or a map. */
export type ShowMode = 'table' | 'chart' | 'map';

/** A view's Table / Chart / Map switch, as the commands and the notebook insertion use it. */
export interface ShowSwitch {
  readonly mode: ShowMode;
  /** The chart shown (null for the table). */
  readonly chart: string | null;
  show(mode: ShowMode, chart?: string): Promise<void>;
  /** `charts.<name>(variable)` for the chart shown, or null for the table. */
  pythonChart(variable: string): string | null;
}

/** A Python API call for notebook insertion, the variable its result is kept in, and the chart line under it. */
export interface PythonCall {
  call: string;
  variable?: string;
  chart?: string;
}

/** The buttons every table section shows; they call the plugin's commands. */
export interface SectionActions {
  exportCsv: (kind: string) => void;
  /** Inserts code that calls the Python API with the section's current arguments. */
  insertInNotebook: (kind: string) => void;
  /** Inserts a CSV snapshot and a pandas loader (the second choice). */
  insertCsvInNotebook: (kind: string) => void;
}

export function div(className: string, text = ''): HTMLDivElement {
  const el = document.createElement('div');
  el.className = className;
  el.textContent = text;
  return el;
}

export function button(
  className: string,
  text: string,
  onClick?: () => void,
  type: 'button' | 'submit' = 'button'
): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = type;
  el.className = `jp-DCHub-button ${className}`;
  el.textContent = text;
  if (onClick) el.addEventListener('click', () => onClick());
  return el;
}

/** An `<input>` of a type with a name and a class (placeholder only when given). */
function input(type: string, name: string, placeholder?: string, className = 'jp-DCHub-input'): HTMLInputElement {
  const el = document.createElement('input');
  el.type = type;
  el.name = name;
  if (placeholder !== undefined) el.placeholder = placeholder;
  el.className = className;
  return el;
}

export function numberInput(
  name: string,
  placeholder: string,
  attrs: { min?: string; step?: string } = {}
): HTMLInputElement {
  const el = input('number', name, placeholder);
  el.step = attrs.step ?? 'any';
  if (attrs.min !== undefined) el.min = attrs.min;
  return el;
}

export function textInput(name: string, placeholder: string, type = 'text'): HTMLInputElement {
  const el = input(type, name, placeholder);
  el.autocomplete = 'off';
  el.spellcheck = false;
  return el;
}

export function checkbox(name: string): HTMLInputElement {
  return input('checkbox', name, undefined, 'jp-DCHub-checkbox');
}

/** A text area for JSON or GeoJSON: `rows` lines high. */
export function textArea(name: string, rows: number, placeholder = ''): HTMLTextAreaElement {
  const el = document.createElement('textarea');
  el.name = name;
  el.rows = rows;
  el.className = 'jp-DCHub-input jp-DCHub-textarea';
  el.placeholder = placeholder;
  return el;
}

/** A form's controls: inputs, selects and text areas. */
export type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The controls under `parent` whose names start with `prefix`, by name without it. */
function namedControls(parent: HTMLElement, prefix: string): Array<[string, FormControl]> {
  const selector = prefix ? `[name^="${CSS.escape(prefix)}"]` : '[name]';
  return [...parent.querySelectorAll<FormControl>(selector)]
    .filter((el) => el.name.length > prefix.length)
    .map((el) => [el.name.slice(prefix.length), el]);
}

/** The values of the controls under `parent` named `prefix` + name, by name: a checkbox's state, else the text. */
export function controlValues(parent: HTMLElement, prefix = ''): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const [name, el] of namedControls(parent, prefix))
    out[name] = el instanceof HTMLInputElement && el.type === 'checkbox' ? el.checked : el.value;
  return out;
}

/** Fills the controls under `parent` named `prefix` + name (a checkbox is checked by true or "true"). */
export function fillControls(parent: HTMLElement, values: Record<string, string | boolean>, prefix = ''): void {
  const controls = new Map(namedControls(parent, prefix));
  for (const [name, value] of Object.entries(values)) {
    const el = controls.get(name);
    if (!el) continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = value === true || value === 'true';
    else el.value = String(value);
  }
}

/** A `<select>` offering `values` (each its own label); `multiple` is set before any option. */
export function select(
  name: string,
  values: Iterable<string> = [],
  opts: { className?: string; multiple?: boolean } = {}
): HTMLSelectElement {
  const el = document.createElement('select');
  el.name = name;
  if (opts.multiple) el.multiple = true;
  el.className = opts.className ?? 'jp-DCHub-input';
  for (const v of values) el.add(new Option(v, v));
  return el;
}

/**
 * Moves focus to the DC Hub results shown in the main area (the one in front): its grid, else its chart or map, else
 * the view itself. False when no view is shown.
 */
export function focusResults(): boolean {
  const views = [...document.querySelectorAll<HTMLElement>('.jp-DCHub-view')].filter((v) => v.offsetParent !== null);
  const view = views.find((v) => v.closest('.lm-mod-current, .jp-mod-current')) ?? views[0];
  if (!view) return false;
  const target = [...view.querySelectorAll<HTMLElement>('[role="grid"], .jp-DCHub-chart[role="region"]')].find(
    (el) => el.offsetParent !== null
  );
  const to = target ?? view;
  if (!target && view.tabIndex < 0) view.tabIndex = -1;
  to.focus();
  return true;
}

/**
 * A form that validates through core (the browser's bubbles stay off) and calls `onSubmit`. Enter in any of its fields
 * runs it (a list box or a select too, where browsers do not submit), and it opens with a "Skip to results" link
 * (shown when focused) for keyboard users.
 */
export function submitForm(className: string, onSubmit: () => void): HTMLFormElement {
  const form = document.createElement('form');
  form.className = className;
  form.noValidate = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit();
  });
  form.addEventListener('keydown', (event) => {
    const el = event.target as HTMLElement;
    if (event.key !== 'Enter' || event.isComposing || event.shiftKey || event.altKey) return;
    if (el instanceof HTMLSelectElement || (event.ctrlKey && !(el instanceof HTMLButtonElement))) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.append(skipLink());
  return form;
}

/** "Skip to results": the first stop of a form, shown when it has focus, to the results without the fields. */
export function skipLink(): HTMLAnchorElement {
  const a = document.createElement('a');
  a.className = 'jp-DCHub-skip';
  a.href = '#';
  a.textContent = 'Skip to results';
  a.addEventListener('click', (event) => {
    event.preventDefault();
    if (!focusResults()) a.textContent = 'Skip to results (no results yet)';
  });
  return a;
}

/** Class of a field laid out wide (a whole row of the form). */
export const WIDE_FIELD = 'jp-DCHub-field jp-DCHub-field-wide';
/** Class of a checkbox field (box before its label). */
export const CHECK_FIELD = 'jp-DCHub-field jp-DCHub-field-check';

export function field(label: string, control: HTMLElement, className = 'jp-DCHub-field'): HTMLLabelElement {
  const el = document.createElement('label');
  el.className = className;
  const span = document.createElement('span');
  span.className = 'jp-DCHub-label';
  span.textContent = label;
  el.append(span, control);
  return el;
}

/** A hidden div with a role: `status` for busy lines, `alert` for error areas. */
export function hiddenDiv(className: string, text = '', role?: 'status' | 'alert'): HTMLDivElement {
  const el = div(className, text);
  if (role) el.setAttribute('role', role);
  el.hidden = true;
  return el;
}

/** Shows a panel busy or idle: its busy line, the control that starts a request, `aria-busy`. */
export function showBusy(panel: HTMLElement, busyLine: HTMLElement, control: HTMLButtonElement, busy: boolean): void {
  busyLine.hidden = !busy;
  control.disabled = busy;
  panel.setAttribute('aria-busy', String(busy));
}

/** Shows `text` in an element, hidden when it is empty. */
export function showText(el: HTMLElement, text: string | undefined): void {
  el.textContent = text ?? '';
  el.hidden = !text;
}

/** The hint shown with network failures when nothing more specific applies. */
export const CONNECTION_HINT = 'Check the connection to the DC Hub service.';

/** The hint for a failed call: `proxyHint` when going through the Jupyter server's relay, else the direct-mode one. */
export function failureHint(mode: 'proxy' | 'direct', proxyHint: string): string {
  return mode === 'proxy'
    ? proxyHint
    : 'Check the DC Hub base URL in Settings and that the service accepts requests from this page (CORS).';
}

/** A number field's value for core validation: '' when blank, the text otherwise. */
export function readNumber(input: HTMLInputElement, param: string): string {
  // A number input reports unparseable text as '' with badInput set; say so instead of ignoring it.
  if (input.validity.badInput) throw new ValidationError(param, 'must be a number');
  return input.value;
}

/**
 * Shows an error in an alert element (or hides it for null), with `data-kind` and `data-param`
 * for tests and a plain hint for network failures.
 */
export function showError(el: HTMLElement, err: unknown, networkHint: string): void {
  if (err === null || err === undefined) {
    el.textContent = '';
    el.hidden = true;
    delete el.dataset.kind;
    delete el.dataset.param;
    delete el.dataset.daily;
    delete el.dataset.explanations;
    return;
  }
  let message = err instanceof Error ? err.message : (scalarText(err) ?? 'an unexpected error');
  if (err instanceof DchubError) {
    el.dataset.kind = err.kind;
    if (err.kind === 'network') message += `. ${networkHint}`;
  } else {
    delete el.dataset.kind;
  }
  if (err instanceof ValidationError) el.dataset.param = err.param;
  else delete el.dataset.param;
  // Today's allowance spent (the relay's or the service's): core's words say so; tests read the flag.
  if (err instanceof RateLimitError && err.daily) el.dataset.daily = 'true';
  else delete el.dataset.daily;
  // What the service explained beyond its message (a hint, the valid names it suggests, where to get
  // a key), a line each under it; text nodes only.
  const explanations = err instanceof DchubError ? err.explanations : [];
  el.replaceChildren(
    message,
    ...explanations.map((line) => Object.assign(div('jp-DCHub-error-explanation'), { textContent: line }))
  );
  el.dataset.explanations = String(explanations.length);
  el.hidden = false;
}

/** The export and notebook buttons of a table section. */
export function tableActions(kind: string, actions: SectionActions): HTMLDivElement {
  const bar = div('jp-DCHub-actions');
  bar.dataset.section = kind;
  const exp = button('jp-DCHub-export', 'Export CSV', () => actions.exportCsv(kind));
  exp.title = 'Save the table as CSV (with a .citation.txt beside it) in the current folder';
  const ins = button('jp-DCHub-insert', 'Insert in notebook', () => actions.insertInNotebook(kind));
  ins.title = 'Add cells that fetch this table with the DC Hub Python API (re-runnable) to the active notebook';
  const csv = button('jp-DCHub-insert-csv', 'Insert CSV snapshot', () => actions.insertCsvInNotebook(kind));
  csv.title = 'Export the table as CSV next to the notebook and add cells that load that snapshot with pandas';
  bar.append(exp, ins, csv);
  return bar;
}

/** A filter box that narrows a grid as the user types. */
export function filterBox(className: string, onInput: (text: string) => void): HTMLInputElement {
  const input = textInput('filter', 'Filter rows…', 'search');
  input.classList.add(className);
  input.setAttribute('aria-label', 'Filter rows');
  input.addEventListener('input', () => onInput(input.value));
  return input;
}
