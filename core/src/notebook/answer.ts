import { fetchMeta, type FetchMeta } from '../call.js';
import type { PreviewInfo } from '../preview.js';
import { citationIn, type Shaped } from '../resource.js';
import { answerNotes, noteList, type AnswerNotes, type NoteKind } from '../notes.js';
import { frameColumns, recordFields, type ColumnValue, type FrameColumn } from './columns.js';

/**
 * What a notebook host receives for one call: a table (typed columns), a single record (its
 * fields), or plain data; `attrs` say where the answer came from and what it is (citation, data
 * time, preview, cache, derivation), `warnings` what the user should be told, by category (a
 * host maps each category to its own warning class: Python's GatedPreviewWarning, ...).
 */
export type WarningCategory = 'preview' | 'stale' | 'allowance' | 'note';

export interface NotebookWarning {
  category: WarningCategory;
  message: string;
}

export type Attrs = Record<string, unknown>;

interface Described {
  attrs: Attrs;
  warnings: NotebookWarning[];
}

export type NotebookAnswer =
  | ({ shape: 'table'; columns: FrameColumn[] } & Described)
  | ({ shape: 'record'; fields: Array<[string, ColumnValue]> } & Described)
  | ({ shape: 'data'; data: unknown } & Described);

/** What a preview withheld, as the `preview` attribute (rows shown and available, fields, filters, plan). */
export function previewAttr(p: PreviewInfo | undefined, shown?: number, partial = false): Attrs | null {
  if (!p) return null;
  return {
    gated: true,
    ...(partial ? { partial: true } : {}),
    shown: p.shown ?? shown ?? null,
    total_available: p.total ?? null,
    hidden_count: p.hidden ?? null,
    required_tier: p.requiredTier ?? null,
    locked_fields: p.lockedFields,
    params_not_applied: p.filtersNotApplied,
    upgrade: p.upgradeUrl ?? p.message ?? null,
  };
}

/** How an answer was obtained, for a host that has no FetchMeta of its own. */
export interface AnswerFacts {
  citation?: string | null;
  /** The data's time (ISO text). */
  asOf?: string | null;
  preview?: PreviewInfo;
  /** Rows of a list answer, when a preview did not say how many it shows. */
  shown?: number;
  /** A list the service cut for this caller (an MCP tool's "3 of 10"). */
  partial?: boolean;
  note?: string | null;
  /** What the service explains about the answer when it has no FetchMeta of its own (an MCP tool's). */
  explanations?: readonly string[];
  /** Attributes of this kind of answer (`count_total_matching`, `tier`, ...). */
  extra?: Attrs;
  /** The path asked (not read since core's notes name no path: the same words in every host). */
  path: string;
}

/** The warning category of each kind of note a notebook raises; the others stay in the attrs. */
const CATEGORY: Partial<Record<NoteKind, WarningCategory>> = {
  explanation: 'note',
  allowance: 'allowance',
  notice: 'note',
  preview: 'preview',
  stale: 'stale',
};

/** Core's notes of an answer as a notebook's warnings, by category, each `DC Hub: ` and the note. */
export function notebookWarnings(notes: AnswerNotes): NotebookWarning[] {
  return noteList(notes).flatMap((n) => {
    const category = CATEGORY[n.kind];
    return category ? [{ category, message: `DC Hub: ${n.text}` }] : [];
  });
}

/**
 * The attrs and warnings of an answer from its FetchMeta and what the method knows: the same keys
 * for every method (citation, as_of, preview, note, explanations, from_cache, stale, age_seconds;
 * stale_reason, derived_from and warnings when there are any), then the method's own. What the
 * service explains (core's `explainAnswer`: an exclusion, a hint, a caveat) is `explanations`, a
 * list of lines, and each is a `note` warning too, so a notebook shows it with the answer.
 */
export function describeAnswer(meta: FetchMeta | undefined, facts: AnswerFacts): Described {
  const preview = facts.preview ?? meta?.previewInfo;
  const explanations = facts.explanations ?? meta?.explanations ?? [];
  const attrs: Attrs = {
    citation: facts.citation ?? null,
    as_of: facts.asOf ?? null,
    preview: previewAttr(preview, facts.shown, facts.partial),
    note: facts.note ?? null,
    explanations: [...explanations],
    from_cache: meta?.fromCache ?? false,
    stale: meta?.stale ?? false,
    age_seconds: (meta?.ageMs ?? 0) / 1000,
  };
  if (meta?.reason) attrs.stale_reason = meta.reason;
  if (meta?.derivedFrom)
    attrs.derived_from = {
      path: meta.derivedFrom.path,
      query: meta.derivedFrom.query,
      age_seconds: meta.derivedFrom.ageMs / 1000,
    };
  if (meta?.warnings.length) attrs.warnings = [...meta.warnings];
  Object.assign(attrs, facts.extra ?? {});
  // The notes of the answer (core's wording); a gateway's notice is said with the answer, not only in its attrs.
  const shown = preview && { ...preview, shown: preview.shown ?? facts.shown };
  const warnings = notebookWarnings(answerNotes([meta], shown, explanations));
  return { attrs, warnings };
}

/** A shaped answer (core's `call`, or an answer shaped by its endpoint) with how it was obtained and the path asked. */
export interface ShapedFrom {
  meta: FetchMeta | undefined;
  path: string;
  shaped: Shaped;
}

/**
 * A notebook answer from an endpoint's shaped answer: a table's rows as typed columns (its columns,
 * then, when the shape is open, the rows' other members: see frameColumns) or a record's fields,
 * described by the shape's citation (DC Hub's when it cites none), data time and note, and by
 * `more` (a method's own attrs, a note that says more).
 */
export function shapedAnswer(a: ShapedFrom, more: Partial<AnswerFacts> = {}): NotebookAnswer {
  const s = a.shaped;
  const facts: AnswerFacts = {
    path: a.path,
    citation: s.citation ?? DEFAULT_CITATION,
    asOf: s.asOf ?? null,
    note: s.note ?? null,
    ...more,
  };
  if (s.shape === 'record')
    return { shape: 'record', fields: recordFields(s.record), ...describeAnswer(a.meta, facts) };
  return {
    shape: 'table',
    columns: frameColumns(s.rows, s.columns, { only: !s.open }),
    ...describeAnswer(a.meta, { shown: s.rows.length, ...facts }),
  };
}

/** A single-record answer: every scalar leaf of `record`, described by `facts`. */
export function recordAnswer(record: unknown, data: unknown, facts: AnswerFacts): NotebookAnswer {
  return { shape: 'record', fields: recordFields(record), ...describeAnswer(fetchMeta(data), facts) };
}

export const DEFAULT_CITATION = 'DC Hub, dchub.cloud, CC-BY-4.0';

/** The citation an answer carries (core's `citationIn`: `_cite`, `citation`, `provenance.cite_as`), else DC Hub's. */
export const citationOf = (body: unknown, fallback: string = DEFAULT_CITATION): string => citationIn(body) ?? fallback;
