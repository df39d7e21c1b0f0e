import { oneLine } from '../http/words.js';

/**
 * A team gateway (`dchub-gateway`, issue 25) answers in the DC Hub interface for a whole team: one
 * cache and one allowance in Redis, each caller with its own token and maybe a daily share. Its
 * answers say so in one header, and only then does a client read the other headers here: what is
 * left of the team's allowance and of the caller's share, and a notice while the gateway is degraded.
 */

/** On every answer of a gateway (errors too): its version. */
export const GATEWAY_HEADER = 'x-dchub-gateway';
/** One line the gateway wants its callers to see (its Redis is down: answers come from one replica's memory). */
export const NOTICE_HEADER = 'x-dchub-notice';

/** What the gateway stated about the day: the team's allowance, and the caller's share when it has one. */
export interface GatewayAllowance {
  teamLimit: number;
  teamRemaining: number;
  /** Upstream requests a day the caller's token may cause (absent: no share of its own). */
  shareLimit?: number;
  shareRemaining?: number;
  /** When the gateway's day ends (ISO). */
  resetsAt: string;
}

/** Whether an answer came from a team gateway. */
export function isGatewayAnswer(headers: Headers): boolean {
  return headers.has(GATEWAY_HEADER);
}

const count = (headers: Headers, name: string): number | undefined => {
  const v = headers.get(name);
  const n = v === null || v.trim() === '' ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** The allowance a gateway's answer states, or undefined (not a gateway's, or it stated none). */
export function readGatewayAllowance(headers: Headers): GatewayAllowance | undefined {
  if (!isGatewayAnswer(headers)) return undefined;
  const teamLimit = count(headers, 'x-dchub-team-limit');
  const teamRemaining = count(headers, 'x-dchub-team-remaining');
  const resets = Date.parse(headers.get('x-dchub-resets-at') ?? '');
  if (teamLimit === undefined || teamRemaining === undefined || !Number.isFinite(resets)) return undefined;
  const shareLimit = count(headers, 'x-dchub-share-limit');
  const shareRemaining = count(headers, 'x-dchub-share-remaining');
  const share = shareLimit !== undefined && shareRemaining !== undefined;
  return {
    teamLimit,
    teamRemaining: Math.min(teamRemaining, teamLimit),
    ...(share ? { shareLimit, shareRemaining: Math.min(shareRemaining, shareLimit) } : {}),
    resetsAt: new Date(resets).toISOString(),
  };
}

/** The gateway's notice as one plain line, or undefined (not a gateway's answer, or none). */
export function gatewayNotice(headers: Headers): string | undefined {
  if (!isGatewayAnswer(headers)) return undefined;
  const line = oneLine(headers.get(NOTICE_HEADER) ?? '');
  return line || undefined;
}

/**
 * Two statements of one day: the later `next`, except that what is left never goes back up within
 * the same day (answers arrive out of order; the gateway counts on).
 */
export function mergeGatewayAllowance(prev: GatewayAllowance | undefined, next: GatewayAllowance): GatewayAllowance {
  const sameDay =
    prev && prev.resetsAt === next.resetsAt && prev.teamLimit === next.teamLimit && prev.shareLimit === next.shareLimit;
  if (!sameDay) return next;
  return {
    ...next,
    teamRemaining: Math.min(prev.teamRemaining, next.teamRemaining),
    ...(next.shareRemaining !== undefined
      ? { shareRemaining: Math.min(prev.shareRemaining ?? next.shareRemaining, next.shareRemaining) }
      : {}),
  };
}

/** The allowance on a later day: full again, until the next UTC midnight (the gateway states the rest). */
export function gatewayAllowanceAt(a: GatewayAllowance, now: number, nextReset: number): GatewayAllowance {
  if (Date.parse(a.resetsAt) > now) return a;
  return {
    ...a,
    teamRemaining: a.teamLimit,
    ...(a.shareLimit !== undefined ? { shareRemaining: a.shareLimit } : {}),
    resetsAt: new Date(nextReset).toISOString(),
  };
}
