import type { PagesProgress } from '@dchub/core';

/**
 * Small pure helpers of the panel: brief progress, relay URLs, calls left.
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

/** A route of the server extension under a Jupyter server's base URL: `<base>/dchub/config` or `<base>/dchub/quota`. */
export function relayRouteUrl(jupyterBaseUrl: string, route: 'config' | 'quota'): string {
  return `${jupyterBaseUrl.replace(/\/+$/, '')}/dchub/${route}`;
}

/** Calls left today, as the sidebar header shows them. */
export interface CallsLeft {
  remaining: number;
  limit: number;
  /** The service stated the allowance (otherwise it is assumed, and calls past it still go out). */
  confirmed: boolean;
  /** The relay's ledger: the server key's allowance, shared with the server's kernels and the `dchub` CLI. */
  shared: boolean;
  /**
   * Behind a team gateway: core's line for it (`quotaLine`: "via the team gateway", the token's
   * share left and the team's), shown as is.
   */
  gatewayLine?: string;
}

/**
 * The relay's `GET dchub/quota` answer (`{tier, limit, used, remaining, resets_at, confirmed}`, and behind a team
 * gateway `via_gateway` with core's `line`), or null when it is not one.
 */
export function readRelayQuota(body: unknown): CallsLeft | null {
  const q = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!count(q.remaining) || !count(q.limit)) return null;
  const gateway = q.via_gateway === true && typeof q.line === 'string' && q.line ? { gatewayLine: q.line } : {};
  return { remaining: q.remaining, limit: q.limit, confirmed: q.confirmed === true, shared: true, ...gateway };
}

/** The header's line: `42 calls left today`, and whose allowance it is when the relay keeps it. */
export function callsLeftText(c: CallsLeft): string {
  if (c.gatewayLine) return c.gatewayLine;
  const left = c.remaining === 0 && c.confirmed ? 'No calls left today' : `${c.remaining} calls left today`;
  return c.shared ? `${left} (the server's allowance, shared with its kernels and the dchub CLI)` : left;
}
