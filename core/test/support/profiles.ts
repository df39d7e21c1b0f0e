import type { Profile } from '../../../sandbox/src/presenters/index.js';
import { fetchMeta } from '../../src/client.js';

/**
 * The sandbox profiles a suite runs against: `spec` (the interface spec's shapes) and `real` (the
 * real service's shapes and quirks, reference notes). Suites that talk to a sandbox run once per
 * profile (`describe.each(SANDBOX_PROFILES)`), with the real profile's expectations written from the
 * notes beside the spec's. DCHUB_TEST_PROFILES (comma-separated) narrows the set while working.
 */
export const SANDBOX_PROFILES: readonly Profile[] = (process.env.DCHUB_TEST_PROFILES ?? 'spec,real')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Profile => s === 'spec' || s === 'real');

export type { Profile };

/**
 * Slugs of the briefs the service failed to build, from an answer's warnings: the real profile fails
 * one of the five briefs every tier sees each day (notes §2.29); core names it and leaves it out.
 */
export function failedBriefSlugs(answer: unknown): string[] {
  return (fetchMeta(answer)?.warnings ?? []).flatMap(
    (w) => /^(\S+): brief failed to build on the service/.exec(w)?.[1] ?? [],
  );
}
