import { formatAge, type FetchMeta } from './call.js';
import { beyond } from './explain.js';
import { toolExplanations } from './mcp-answers.js';
import type { ToolResult } from './mcp-result.js';
import { previewSentence, type PreviewInfo } from './preview.js';

/**
 * What the user should know about an answer, worded once for every host: what the service explains
 * about it, the calls past an assumed allowance, a team gateway's notice, what the reader mended or
 * left out, what a preview withholds, and how it was obtained (stale from the cache and why,
 * answered locally from a wider answer, or fresh from the cache). Hosts present these notes and
 * word nothing themselves: the CLI prints them on stderr, Excel as a table's closing rows or a
 * cell's note, the panel in its banner, Python as warnings of a class chosen by each note's kind.
 */

/** Most reader warnings said of one answer; the rest are counted in one more line. */
export const MAX_WARNINGS = 8;

/** What a note is about: by it a host chooses where the note goes (a row or a cell note, a warning class, a banner). */
export type NoteKind = 'explanation' | 'allowance' | 'notice' | 'warning' | 'preview' | 'stale' | 'derived' | 'cached';

export interface Note {
  kind: NoteKind;
  /** One line, in the one wording every host shows. */
  text: string;
}

/** The notes of an answer, by what they are about. */
export interface AnswerNotes {
  /** What the service explains about the answer, one line each (absent when it explains nothing). */
  explanations?: string[];
  /** What a gated (or partial) preview withholds: `previewSentence`. */
  preview?: string;
  /** Served from the cache when the service could not be asked: how old, and why. */
  stale?: { ageMs: number; reason: string; text: string };
  /** Answered locally from a cached wider answer. */
  derived?: string;
  /** Fresh from the cache (neither stale nor derived): how old. */
  cached?: string;
  /**
   * Every line to warn about, as the answer carries them: what the reader mended or left out ("chicago:
   * brief failed to build on the service"), then the calls past an assumed allowance and a gateway's notice.
   */
  warnings: string[];
  /** Of `warnings`, the lines saying a call went past an assumed daily allowance (it still went out). */
  allowance?: string[];
  /** Of `warnings`, a team gateway's notice (it is degraded). */
  notice?: string[];
}

/** Why a stale answer was served, when nothing said why. */
const UNASKED = 'the service could not be asked';

/** ISO instants in a reason as people read them: `2026-11-24 00:00 UTC`. */
export const readableTimes = (s: string): string =>
  s.replace(/\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|\+00:00)/g, '$1 $2 UTC');

/** An answer served stale from the cache: `served from the cache (3 h 5 min old): service error`. */
export const staleText = (ageMs: number, reason: string = UNASKED): string =>
  `served from the cache (${formatAge(ageMs)} old): ${readableTimes(reason)}`;

/** An answer fresh from the cache: `from the cache (12 s old)`. */
export const cachedText = (ageMs: number): string => `from the cache (${formatAge(ageMs)} old)`;

/** An answer derived locally: `answered locally from a cached wider answer (GET /api/…?iso=PJM, 2 min old)`. */
export function derivedText(from: NonNullable<FetchMeta['derivedFrom']>): string {
  const asked = `GET ${from.path}${from.query ? `?${from.query}` : ''}`;
  return `answered locally from a cached wider answer (${asked}, ${formatAge(from.ageMs)} old)`;
}

/** The line after the first MAX_WARNINGS: `… and 3 more warnings`. */
export const moreWarningsText = (n: number): string => `… and ${n} more warning${n === 1 ? '' : 's'}`;

/** When an answer was last refreshed, for a status line: `refreshed 12 min ago`. */
export const refreshedText = (ageMs: number): string => `refreshed ${formatAge(ageMs)} ago`;

/** A preview the reader could not describe. */
const GATED = 'Preview: part of the data is withheld for your plan.';
/** A list an MCP server cut for this caller, with no description of what it withheld. */
const PARTIAL = 'Partial: the service cut this list for your plan.';

const unique = (lines: Iterable<string>) => [...new Set(lines)];

/** `lines` that are also in `of`, or nothing. */
const among = (lines: readonly string[], of: readonly string[]) => {
  const found = lines.filter((l) => of.includes(l));
  return found.length ? found : undefined;
};

/** The fields of AnswerNotes that are lists, set only when not empty. */
function withLines(notes: AnswerNotes, lists: Pick<AnswerNotes, 'explanations' | 'allowance' | 'notice'>): AnswerNotes {
  for (const [k, v] of Object.entries(lists) as Array<[keyof typeof lists, string[] | undefined]>)
    if (v?.length) notes[k] = v;
  return notes;
}

/**
 * The notes of an answer made of one or more fetched parts (the pages of a list): the stalest part
 * says how old the answer is, each warning and explanation is said once. `preview` overrides the
 * parts' own description (an MCP partial list carries its own); `said` overrides their explanations
 * (a host that read them elsewhere).
 */
export function answerNotes(
  metas: ReadonlyArray<FetchMeta | undefined>,
  preview?: PreviewInfo,
  said?: readonly string[],
): AnswerNotes {
  const parts = metas.filter((m): m is FetchMeta => m !== undefined);
  const info = preview ?? parts.find((m) => m.previewInfo)?.previewInfo;
  const warnings = unique(parts.flatMap((m) => m.warnings ?? []));
  const notes: AnswerNotes = { warnings };
  if (info) notes.preview = previewSentence(info);
  else if (parts.some((m) => m.preview)) notes.preview = GATED;
  const oldest = (ms: FetchMeta[]) => ms.sort((a, b) => b.ageMs - a.ageMs)[0];
  const stalest = oldest(parts.filter((m) => m.stale));
  const derived = parts.find((m) => m.derivedFrom)?.derivedFrom;
  const cached = oldest(parts.filter((m) => m.fromCache));
  if (stalest) {
    const reason = stalest.reason ?? UNASKED;
    notes.stale = { ageMs: stalest.ageMs, reason, text: staleText(stalest.ageMs, reason) };
  } else if (derived) notes.derived = derivedText(derived);
  else if (cached) notes.cached = cachedText(cached.ageMs);
  const explained = unique(said ?? parts.flatMap((m) => m.explanations ?? []));
  return withLines(notes, {
    explanations: notes.preview ? beyond(notes.preview, explained) : explained,
    allowance: among(
      warnings,
      parts.flatMap((m) => m.allowance ?? []),
    ),
    notice: among(
      warnings,
      parts.flatMap((m) => m.notice ?? []),
    ),
  });
}

/**
 * The notes of an MCP tool answer: what it explains for the user (core's `toolExplanations`), a
 * list the server cut for this caller ("3 of 10") and what opens the rest, a stale or cached
 * answer's age, and the call's own warnings (an assumed daily MCP allowance exceeded: the call went out).
 */
export function toolAnswerNotes(
  r: Pick<ToolResult, 'partial' | 'previewInfo' | 'warnings' | 'fromCache' | 'stale' | 'ageMs' | 'reason'> &
    Partial<Pick<ToolResult, 'data'>>,
): AnswerNotes {
  const notes: AnswerNotes = { warnings: [] };
  if (r.previewInfo) notes.preview = previewSentence(r.previewInfo);
  else if (r.partial) notes.preview = PARTIAL;
  const ageMs = r.ageMs ?? 0;
  const stale = r.stale ? { ageMs, reason: r.reason ?? UNASKED, text: staleText(ageMs, r.reason) } : undefined;
  if (stale) notes.stale = stale;
  else if (r.fromCache) notes.cached = cachedText(ageMs);
  // Beside the stale line McpToolClient words with this module, a tool's warnings are about the allowance.
  notes.warnings = (r.warnings ?? []).filter((w) => w !== stale?.text);
  return withLines(notes, {
    explanations: toolExplanations({ data: r.data, previewInfo: r.previewInfo }),
    allowance: notes.warnings.length ? [...notes.warnings] : undefined,
  });
}

/**
 * The notes as lines, in the order every host shows them: what the service explains, the calls past an
 * assumed allowance, a gateway's notice, the reader's warnings (at most MAX_WARNINGS, then how many
 * more), what a preview withholds, and last how the answer was obtained (a table served stale ends
 * with its age and why).
 */
export function noteList(notes: AnswerNotes): Note[] {
  const out: Note[] = (notes.explanations ?? []).map((text) => ({ kind: 'explanation', text }));
  const allowance = notes.allowance ?? [];
  const notice = notes.notice ?? [];
  for (const text of allowance) out.push({ kind: 'allowance', text });
  for (const text of notice.filter((n) => !allowance.includes(n))) out.push({ kind: 'notice', text });
  const read = notes.warnings.filter((w) => !allowance.includes(w) && !notice.includes(w));
  for (const text of read.slice(0, MAX_WARNINGS)) out.push({ kind: 'warning', text });
  if (read.length > MAX_WARNINGS) out.push({ kind: 'warning', text: moreWarningsText(read.length - MAX_WARNINGS) });
  if (notes.preview) out.push({ kind: 'preview', text: notes.preview });
  if (notes.stale) out.push({ kind: 'stale', text: notes.stale.text });
  if (notes.derived) out.push({ kind: 'derived', text: notes.derived });
  if (notes.cached) out.push({ kind: 'cached', text: notes.cached });
  return out;
}

/** Whether a note warns (the allowance, a gateway's notice, what the reader mended or left out). */
export const isWarning = (n: Note): boolean => n.kind === 'allowance' || n.kind === 'notice' || n.kind === 'warning';

/**
 * The value a time-to-power cut suggests for `max_ttp_months`: the service's suggested parameter,
 * else the least value that keeps an ISO of the request (`min_satisfiable_max_ttp_months`).
 */
export function suggestedMaxTtp(answer: {
  _error_mitigation?: { suggested_params?: Record<string, unknown> } | undefined;
  min_satisfiable_max_ttp_months?: number | null | undefined;
}): number | undefined {
  const s = answer._error_mitigation?.suggested_params?.max_ttp_months;
  const n = typeof s === 'number' ? s : typeof s === 'string' && s.trim() ? Number(s) : NaN;
  if (Number.isFinite(n) && n > 0) return n;
  const m = answer.min_satisfiable_max_ttp_months;
  return typeof m === 'number' && Number.isFinite(m) && m > 0 ? m : undefined;
}

/** A list the call's limit cut: `200 of 1,611 matching projects (the call's limit)` (a table's note, a subtitle). */
export const limitedText = (shown: number, total: number, noun = 'rows'): string =>
  `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} matching ${noun} (the call's limit)`;

/** The rows that matched, from a table's closing rows that say `limitedText` (a host that reads a table back). */
export function matchingIn(lines: readonly string[]): number | undefined {
  for (const l of lines) {
    const m = /^[\d,]+ of ([\d,]+) matching \S+ \(the call's limit\)$/.exec(l.trim());
    if (m) return Number(m[1].replace(/,/g, ''));
  }
  return undefined;
}
