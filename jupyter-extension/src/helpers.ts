import type { PagesProgress } from '@dchub/core';

/**
 * Small pure helpers of the panel: brief progress, relay URLs, the time-to-power hint, ages.
 * No DOM and no Lumino here, so Vitest runs them under plain Node. (Table views, export files,
 * the ranking form and tool arguments have their own modules.)
 */

/** The briefs' busy line: what is read, and after each page how far (`page 1 of 2, 50 of 232 briefs`). */
export function briefsProgressText(refreshing: boolean, p?: PagesProgress): string {
  const what = refreshing ? 'Checking for changed briefs' : 'Loading briefs';
  if (!p || p.pagesDone >= p.pagesTotal) return `${what}…`;
  return `${what}: page ${p.pagesDone} of ${p.pagesTotal}, ${p.rowsDone} of ${p.rowsTotal} briefs…`;
}

/** The relay root under a Jupyter server's base URL: `<base>/dchub/proxy/`. */
export function proxyBaseUrl(jupyterBaseUrl: string): string {
  return jupyterBaseUrl.replace(/\/+$/, '') + '/dchub/proxy/';
}

/** The relay's config endpoint under a Jupyter server's base URL. */
export function proxyConfigUrl(jupyterBaseUrl: string): string {
  return jupyterBaseUrl.replace(/\/+$/, '') + '/dchub/config';
}

/** The value the time-to-power hint suggests for `max_ttp_months`, if any. */
export function suggestedMaxTtp(result: {
  _error_mitigation?: { suggested_params?: Record<string, unknown> } | undefined;
  min_satisfiable_max_ttp_months?: number | null | undefined;
}): number | undefined {
  const s = result._error_mitigation?.suggested_params?.max_ttp_months;
  const n = typeof s === 'number' ? s : typeof s === 'string' ? Number(s) : NaN;
  if (Number.isFinite(n) && n > 0) return n;
  const m = result.min_satisfiable_max_ttp_months;
  return typeof m === 'number' && m > 0 ? m : undefined;
}

/** "3 min ago"-style age for a last-refreshed line. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'just now';
  const s = Math.round(ms / 1000);
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}
