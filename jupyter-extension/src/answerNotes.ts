/**
 * What the panel says beside an answer (pure, no DOM): one rule for every view, from core's
 * `fetchMeta` of the answer (or of each page of it) — what the service explains about it (core's
 * `explanations`: ISOs a time-to-power cut excluded and its hint, objectives not scored and why,
 * caveats), what a gated preview withholds (`previewSentence`), a stale answer's age and why it
 * was served, an answer derived locally from a wider one, and what the reader mended or left out
 * (named bad records). The CLI prints the same facts on stderr; Excel puts them in closing rows.
 */
import {
  beyond,
  describeDerived,
  formatAge,
  previewSentence,
  toolExplanations,
  type FetchMeta,
  type PreviewInfo,
  type ToolResult
} from '@dchub/core';

export interface AnswerNotes {
  /** What the service explains about the answer, one line each (absent when it explains nothing). */
  explanations?: string[];
  /** `previewSentence` of what a gated (or partial) preview withholds. */
  preview?: string;
  /** Served from the cache after a failed refresh: how old, and why. */
  stale?: { ageMs: number; reason: string; text: string };
  /** Answered locally from a cached wider answer. */
  derived?: string;
  /** What the reader mended or left out, one line each ("chicago: brief failed to build on the service"). */
  warnings: string[];
}

/** Most warning lines shown; the rest are counted. */
export const MAX_WARNINGS = 8;

/**
 * The notes of an answer made of one or more fetched parts (pages of a list). `preview` overrides
 * the parts' own preview description (an MCP partial list carries its own).
 */
export function answerNotes(metas: ReadonlyArray<FetchMeta | undefined>, preview?: PreviewInfo): AnswerNotes {
  const present = metas.filter((m): m is FetchMeta => m !== undefined);
  const info = preview ?? present.find((m) => m.previewInfo)?.previewInfo;
  const gated = !info && present.some((m) => m.preview);
  const stalest = present.filter((m) => m.stale).sort((a, b) => b.ageMs - a.ageMs)[0];
  const derived = present.find((m) => m.derivedFrom)?.derivedFrom;
  const warnings = [...new Set(present.flatMap((m) => m.warnings ?? []))];
  const notes: AnswerNotes = { warnings };
  if (info) notes.preview = previewSentence(info);
  else if (gated) notes.preview = 'Preview: part of the data is withheld below your tier.';
  if (stalest) {
    const reason = stalest.reason ?? 'the service could not be asked';
    notes.stale = {
      ageMs: stalest.ageMs,
      reason,
      text: `Served from the cache (${formatAge(stalest.ageMs)} old): ${reason}.`
    };
  }
  if (derived && !stalest) notes.derived = `${describeDerived(derived).replace(/^a/, 'A')}.`;
  const said = [...new Set(present.flatMap((m) => m.explanations ?? []))];
  const explanations = notes.preview ? beyond(notes.preview, said) : said;
  if (explanations.length) notes.explanations = explanations;
  return notes;
}

/**
 * The notes of an MCP tool answer: what it explains for the user (core's `toolExplanations`), a
 * list the server cut for this caller ("3 of 10") and what opens the rest, and the call's own
 * warnings (an assumed daily MCP allowance exceeded: the call went out).
 */
export function toolAnswerNotes(
  result: Pick<ToolResult, 'partial' | 'previewInfo' | 'warnings'> & Partial<Pick<ToolResult, 'data'>>
): AnswerNotes {
  const notes = answerNotes([], result.previewInfo);
  if (result.partial && !notes.preview) notes.preview = 'Partial: the service cut this answer for your plan.';
  notes.warnings = [...(result.warnings ?? [])];
  const explanations = toolExplanations({ data: result.data, previewInfo: result.previewInfo });
  if (explanations.length) notes.explanations = explanations;
  return notes;
}

/** The warning lines to show: at most MAX_WARNINGS, then how many more. */
export function warningLines(warnings: readonly string[]): string[] {
  if (warnings.length <= MAX_WARNINGS) return [...warnings];
  return [...warnings.slice(0, MAX_WARNINGS), `… and ${warnings.length - MAX_WARNINGS} more`];
}
