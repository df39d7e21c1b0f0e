/* global CustomFunctions */
import {
  answerNotes as notesOf,
  describeGated,
  fetchMeta,
  isWarning,
  noteList,
  planName,
  previewSentence,
  toolAnswerNotes,
  type AnswerNotes,
  type FetchMeta,
  type PreviewInfo,
  type Table,
  type ToolResult,
} from '@dchub/core';
import { noteCell, type CellNoteKind } from '../shared/cell-notes';

/**
 * What a formula's answer says about itself, in core's words (its notes): what the service explains,
 * the tolerant reader's warnings, a gated preview, an answer served stale from the cache or answered
 * locally from a cached wider one. A spilled table ends with these rows; a one-cell answer is noted
 * for the task pane (../shared/cell-notes). An answer fresh from the cache is not noted in a sheet.
 */

export { readableTimes } from '@dchub/core';

/** What a preview withholds: the reader's description, or the markers of an answer that carries them itself. */
export const previewOf = (data: unknown): PreviewInfo | undefined =>
  fetchMeta(data)?.previewInfo ?? describeGated(data);

/** Core's notes of an answer, with its preview as the add-in reads it. */
const notesOfAnswer = (data: unknown): AnswerNotes => notesOf([fetchMeta(data)], previewOf(data));

/** How an answer was obtained when that is not "just now from the service": stale, or derived locally. */
function howObtained(notes: AnswerNotes): { kind: CellNoteKind; text: string } | undefined {
  if (notes.stale) return { kind: 'stale', text: notes.stale.text };
  return notes.derived ? { kind: 'derived', text: notes.derived } : undefined;
}

/** How the answer of `meta` was obtained (see howObtained), for a card and the pane's status line. */
export const provenance = (meta: FetchMeta | undefined) => howObtained(notesOf([meta]));

/** The closing rows of a spilled table: what the service explains, then what else the answer notes. */
export interface ClosingRows {
  /**
   * What the service explains about the answer (core's `fetchMeta(data).explanations`: ISOs a
   * time-to-power cut excluded and its hint, objectives not scored and why, caveats), one per row;
   * on an empty answer they stand where "no rows" would.
   */
  explanations: string[];
  /** The allowance, the reader's warnings, what a preview withholds, how the answer was obtained. */
  notes: string[];
}

/** Notes as closing rows, in core's order (a table served from the cache ends with "served from the cache …"). */
function closingOf(notes: AnswerNotes): ClosingRows {
  const shown = noteList(notes).filter((n) => n.kind !== 'cached');
  return {
    explanations: shown.filter((n) => n.kind === 'explanation').map((n) => n.text),
    notes: shown.filter((n) => n.kind !== 'explanation').map((n) => n.text),
  };
}

/**
 * The closing rows of a spilled table, in this order: what the service explains about the answer,
 * the reader's warnings ("chicago: brief failed to build on the service (left out)"), what a
 * preview withholds, then how the answer was obtained (stale or derived).
 */
export const closingRows = (data: unknown): ClosingRows => closingOf(notesOfAnswer(data));

/** The closing rows of an MCP tool's table: its explanations, the calls past an allowance, a cut list, its age. */
export const toolClosingRows = (r: ToolResult): ClosingRows => closingOf(toolAnswerNotes(r));

/** The closing rows as one list (see `closingRows`). */
export function answerNotes(data: unknown): string[] {
  const { explanations, notes } = closingRows(data);
  return [...explanations, ...notes];
}

/** The one note of a one-cell answer: how it was obtained, else its preview, a warning, what the service explains. */
function cellNote(notes: AnswerNotes): { kind: CellNoteKind; text: string } | undefined {
  const how = howObtained(notes);
  if (how) return how;
  if (notes.preview) return { kind: 'preview', text: notes.preview };
  const warning = noteList(notes).find(isWarning);
  if (warning) return { kind: 'warning', text: warning.text };
  return notes.explanations ? { kind: 'warning', text: notes.explanations.join('; ') } : undefined;
}

/**
 * A table whose own note is a preview caveat of core's older wording ("Preview: 5 of 312 matching
 * facilities", "182 more markets with a higher tier"): on a described preview the closing row's
 * previewSentence says it, so the note goes (or becomes `keep`, the part that is not about the preview).
 */
export function withoutPreviewNote(table: Table, data: unknown, keep?: string): Table {
  return previewOf(data) ? { ...table, note: keep } : table;
}

/** Whether a preview lists `path` (or a group holding it) as withheld. */
function withheld(p: PreviewInfo, path: string): boolean {
  const parts = path.split('.');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('.'));
  return (
    prefixes.some((x) => p.lockedFields.includes(x) || p.withheldSections.includes(x)) ||
    p.lockedFields.includes(parts[parts.length - 1])
  );
}

/** The one line of a withheld value: what is withheld, what the preview does show, how to open it. */
function withheldMessage(p: PreviewInfo, path: string, shown?: string): string {
  const unlock = p.requiredTier ? `${planName(p.requiredTier)} opens it` : 'an API key opens it';
  return `DC Hub: ${path} is withheld in this preview${shown ? ` (${shown})` : ''}; ${unlock}${p.upgradeUrl ? `: ${p.upgradeUrl}` : ''}`;
}

/**
 * Where a formula's one-cell answer is noted: the calling cell (functions that declare
 * @requiresAddress get it from Excel), else the formula and its arguments.
 */
export function cellOf(invocation: { address?: string } | undefined, formula: string, args: unknown[]): string {
  return (
    invocation?.address ??
    `${formula}(${args.map((a) => (a === null || a === undefined ? '' : JSON.stringify(a))).join(',')})`
  );
}

export interface OneCell {
  /** The cell (see cellOf) and the formula, for the pane's list. */
  cell: string;
  formula: string;
  /** What the preview does show, named in a withheld value's message ("verdict: Excellent site"). */
  shown?: string;
}

/**
 * A value for one cell from an answer, and the pane's note about that cell. A value the preview
 * withholds (null, listed in `_locked_fields`) is #N/A naming it and the plan that opens it —
 * never 0 and never a blank that reads as "no value"; any other null is "" (a blank cell). A value
 * that is there is returned, and a preview, a stale or a derived answer is noted for the pane.
 */
export function oneCell<T>(data: unknown, path: string, value: T | null | undefined, at: OneCell): T | '' {
  const preview = previewOf(data);
  if ((value === null || value === undefined) && preview && withheld(preview, path)) {
    noteCell(at.cell, at.formula, { kind: 'preview', text: `${path} withheld: ${previewSentence(preview)}` });
    const err = new CustomFunctions.Error(
      CustomFunctions.ErrorCode.notAvailable,
      clip(withheldMessage(preview, path, at.shown)),
    );
    withheldErrors.add(err);
    throw err;
  }
  noteCell(at.cell, at.formula, cellNote(notesOfAnswer(data)));
  return value === null || value === undefined ? '' : value;
}

const withheldErrors = new WeakSet<object>();

/**
 * Runs a one-cell formula's work; when it fails (the cell shows the error and its message), the
 * cell's earlier note is dropped, except the note of a withheld value, which says why.
 */
export async function oneCellFormula<T>(at: Pick<OneCell, 'cell' | 'formula'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err && typeof err === 'object' && withheldErrors.has(err))) noteCell(at.cell, at.formula, undefined);
    throw err;
  }
}

/** Excel shows at most 255 characters of a message. */
const clip = (s: string) => (s.length > 255 ? `${s.slice(0, 254)}…` : s);
