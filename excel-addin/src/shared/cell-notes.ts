/**
 * What a single-value cell cannot show beside its value: that it was served stale from the cache,
 * answered locally from a wider answer, or comes from a gated preview. A spilled table says it in a
 * closing row; a one-cell answer (SITESCORE, DCPI, PRICE, a field of BRIEF, MARKET or PARCEL) is
 * recorded here by its address, and the task pane lists the cells (the add-in runs in a shared
 * runtime: the pane and the functions share this module). A cell answered plainly again is
 * removed. No DOM, nothing secret (notes are made from the answer's metadata, never from the key).
 */

export type CellNoteKind = 'stale' | 'derived' | 'preview' | 'warning';

export interface CellNote {
  /** The calling cell (`Sheet1!B2`), or the formula and its arguments when Excel gave no address. */
  cell: string;
  /** The function, e.g. `SITESCORE`. */
  formula: string;
  kind: CellNoteKind;
  /** One line, as the pane shows it. */
  text: string;
  at: number;
}

/**
 * The pane lists at most this many cells (the latest); a workbook of thousands of stale cells is summarized by count.
 */
export const MAX_CELL_NOTES = 200;

const notes = new Map<string, CellNote>();
const listeners = new Set<() => void>();
let pending = false;

function changed(): void {
  if (pending) return;
  pending = true;
  // One notification per burst (a recalculation storm of a column), after it.
  setTimeout(() => {
    pending = false;
    for (const l of listeners) l();
  }, 0);
}

/** Records (or, with `note` undefined, clears) what `cell` cannot show. */
export function noteCell(cell: string, formula: string, note: { kind: CellNoteKind; text: string } | undefined): void {
  const had = notes.get(cell);
  if (!note) {
    if (had && notes.delete(cell)) changed();
    return;
  }
  if (had?.kind === note.kind && had.text === note.text) return;
  notes.delete(cell); // re-inserted last: the newest notes are kept
  notes.set(cell, { cell, formula, kind: note.kind, text: note.text, at: Date.now() });
  while (notes.size > MAX_CELL_NOTES) notes.delete(notes.keys().next().value as string);
  changed();
}

/** The recorded cells, newest first. */
export const cellNotes = (): CellNote[] => [...notes.values()].reverse();

/** Forgets every note (the pane's Refresh now: the cells are recalculated). */
export function clearCellNotes(): void {
  if (!notes.size) return;
  notes.clear();
  changed();
}

/** Calls `listener` after notes change; returns the unsubscribe. */
export function onCellNotes(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
