import type { GatewayAllowance } from './gateway.js';
import type { LedgerSnapshot } from './ledger.js';

/** What a host knows of the day's allowance: a ledger's snapshot, or the same facts read back from the engine. */
export type QuotaFacts = Pick<LedgerSnapshot, 'limit' | 'used' | 'remaining' | 'resetsAt'> & {
  viaGateway?: boolean;
  gateway?: GatewayAllowance;
};

const utc = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The allowance in one line, as every host shows it (the Excel pane, the JupyterLab panel, `dchub
 * quota`). Behind a team gateway: said so, with the caller's share left and the team's beside it
 * (a share counts the requests its caller causes upstream: answers the gateway holds cost none).
 */
export function quotaLine(q: QuotaFacts): string {
  if (q.viaGateway) {
    const g = q.gateway;
    if (!g) return 'via the team gateway (it has not stated the allowance yet)';
    const resets = `resets ${utc(g.resetsAt)}`;
    if (g.shareLimit === undefined || g.shareRemaining === undefined)
      return `via the team gateway: ${g.teamRemaining} of ${g.teamLimit} requests left today for the team; ${resets}`;
    const spent = g.shareRemaining === 0 ? '; answers the gateway holds still come' : '';
    return (
      `via the team gateway: ${g.shareRemaining} of ${g.shareLimit} requests left in your share today ` +
      `(team: ${g.teamRemaining} of ${g.teamLimit})${spent}; ${resets}`
    );
  }
  if (!Number.isFinite(q.limit)) return 'No daily limit applied.';
  return `${q.remaining} of ${q.limit} calls left today (used ${q.used}); resets ${utc(q.resetsAt)}`;
}
