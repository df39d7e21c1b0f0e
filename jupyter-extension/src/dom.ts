import { DchubError, ValidationError, type Table } from '@dchub/core';

/** A panel section whose current table can be exported or inserted into a notebook. */
export interface TableSource {
  /** Short name used in file names (`dchub-<kind>-<date>.csv`). */
  readonly kind: string;
  /** Human title for the citation. */
  readonly exportTitle: string;
  /** The table as currently shown (filtered and sorted), or null before any data. */
  exportTable(): Table | null;
}

/** The buttons every table section shows; they call the plugin's commands. */
export interface SectionActions {
  exportCsv: (kind: string) => void;
  insertInNotebook: (kind: string) => void;
}

export function div(className: string, text = ''): HTMLDivElement {
  const el = document.createElement('div');
  el.className = className;
  el.textContent = text;
  return el;
}

export function button(className: string, text: string, onClick?: () => void, type: 'button' | 'submit' = 'button'): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = type;
  el.className = `jp-DCHub-button ${className}`;
  el.textContent = text;
  if (onClick) el.addEventListener('click', () => onClick());
  return el;
}

export function numberInput(name: string, placeholder: string, attrs: { min?: string; step?: string } = {}): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'number';
  input.name = name;
  input.step = attrs.step ?? 'any';
  if (attrs.min !== undefined) input.min = attrs.min;
  input.placeholder = placeholder;
  input.className = 'jp-DCHub-input';
  return input;
}

export function textInput(name: string, placeholder: string, type = 'text'): HTMLInputElement {
  const input = document.createElement('input');
  input.type = type;
  input.name = name;
  input.placeholder = placeholder;
  input.className = 'jp-DCHub-input';
  input.autocomplete = 'off';
  input.spellcheck = false;
  return input;
}

export function checkbox(name: string): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.name = name;
  input.className = 'jp-DCHub-checkbox';
  return input;
}

export function field(label: string, control: HTMLElement, className = 'jp-DCHub-field'): HTMLLabelElement {
  const el = document.createElement('label');
  el.className = className;
  const span = document.createElement('span');
  span.className = 'jp-DCHub-label';
  span.textContent = label;
  el.append(span, control);
  return el;
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
    return;
  }
  let message = err instanceof Error ? err.message : String(err);
  if (err instanceof DchubError) {
    el.dataset.kind = err.kind;
    if (err.kind === 'network') message += `. ${networkHint}`;
  } else {
    delete el.dataset.kind;
  }
  if (err instanceof ValidationError) el.dataset.param = err.param;
  else delete el.dataset.param;
  el.textContent = message;
  el.hidden = false;
}

/** The export and notebook buttons of a table section. */
export function tableActions(kind: string, actions: SectionActions): HTMLDivElement {
  const bar = div('jp-DCHub-actions');
  bar.dataset.section = kind;
  const exp = button('jp-DCHub-export', 'Export CSV', () => actions.exportCsv(kind));
  exp.title = 'Save the table as CSV (with a .citation.txt beside it) in the current folder';
  const ins = button('jp-DCHub-insert', 'Insert in notebook', () => actions.insertInNotebook(kind));
  ins.title = 'Export the table and add cells that load it with pandas to the active notebook';
  bar.append(exp, ins);
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
