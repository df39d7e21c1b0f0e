import type { FetchMeta } from '../call.js';
import { EXIT, exitCode } from '../engine/errors.js';
import { DchubError } from '../errors.js';
import { oneLine, stripUserinfo } from '../http/words.js';
import { answerNotes as notesOf, isWarning, noteList, type AnswerNotes, type Note } from '../notes.js';
import type { PreviewInfo } from '../preview.js';

export { EXIT };

export class UsageError extends Error {}

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
}

/** A note as the CLI prints it: a warning labelled as one; a derived answer with the flag that asks the service. */
function cliText(n: Note): string {
  if (isWarning(n)) return `warning: ${n.text}`;
  return n.kind === 'derived' ? `${n.text}; --no-derive asks the service` : n.text;
}

/** What the user should know about an answer (core's notes, in their order), on stderr, one line each. */
export function noteLines(notes: AnswerNotes): string[] {
  return noteList(notes).map((n) => `dchub: ${oneLine(cliText(n), 400)}\n`);
}

/**
 * The notes of a fetched answer, in every output format: what the service explains about it, what
 * the reader mended or left out, what a preview withholds, and its age when it came from the cache
 * (and why, when stale).
 */
export function answerNotes(meta: FetchMeta | undefined, preview?: PreviewInfo): string[] {
  return noteLines(notesOf([meta], preview));
}

/** One readable line on stderr (never a stack trace, never a secret) and the exit code. */
export function reportError(err: unknown, io: CliIO): number {
  const raw = err instanceof Error ? err.message : String(err);
  const msg = oneLine(stripUserinfo(raw), 500);
  if (err instanceof UsageError) {
    io.err(`dchub: ${msg}\n(dchub --help for usage)\n`);
    return EXIT.usage;
  }
  if (err instanceof DchubError) {
    io.err(`dchub: ${msg}\n`);
    // What the service explained beyond its message (a hint, valid names, where to get a key), a line each.
    for (const line of err.explanations) io.err(`dchub: ${oneLine(stripUserinfo(line), 400)}\n`);
  } else {
    io.err(`dchub: internal error: ${msg || 'unknown'} (set DCHUB_DEBUG=1 for details)\n`);
    if (io.env.DCHUB_DEBUG && err instanceof Error && err.stack) io.err(`${err.stack}\n`);
  }
  return exitCode(err);
}
