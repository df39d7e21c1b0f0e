import { formatAge, type FetchMeta } from '../call.js';
import { describeDerived } from '../derive/sources.js';
import { EXIT, exitCode } from '../engine/errors.js';
import { DchubError } from '../errors.js';
import { oneLine, stripUserinfo } from '../http/words.js';
import { previewSentence, type PreviewInfo } from '../preview.js';

export { EXIT };

export class UsageError extends Error {}

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
}

const MAX_WARNINGS = 8;

/**
 * What the user should know about an answer, on stderr, one line each, in every output format:
 * its age when it came from the cache (and why, when stale), what the reader mended or left out,
 * what the service explains about it (exclusions, hints, caveats: `meta.explanations`), and what a
 * preview withholds.
 */
export function answerNotes(
  meta:
    | Pick<
        FetchMeta,
        'fromCache' | 'stale' | 'ageMs' | 'reason' | 'warnings' | 'previewInfo' | 'derivedFrom' | 'explanations'
      >
    | undefined,
  preview?: PreviewInfo,
): string[] {
  const lines: string[] = [];
  if (meta?.stale)
    lines.push(`served from cache (${formatAge(meta.ageMs)} old): ${meta.reason ?? 'the service could not be asked'}`);
  else if (meta?.derivedFrom) lines.push(`${describeDerived(meta.derivedFrom)}; --no-derive asks the service`);
  else if (meta?.fromCache) lines.push(`from cache (${formatAge(meta.ageMs)} old)`);
  const warnings = meta?.warnings ?? [];
  for (const w of warnings.slice(0, MAX_WARNINGS)) lines.push(`warning: ${w}`);
  if (warnings.length > MAX_WARNINGS) lines.push(`warning: … and ${warnings.length - MAX_WARNINGS} more`);
  lines.push(...(meta?.explanations ?? []));
  const p = preview ?? meta?.previewInfo;
  if (p) lines.push(previewSentence(p, 'gated preview'));
  return lines.map((l) => `dchub: ${oneLine(l, 400)}\n`);
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
