import { NetworkError, QuotaSpentError, RateLimitError, SchemaDriftError, ServerError } from '../errors.js';

/**
 * A failed refresh that a cached answer may stand in for: the service unreachable or failing, a
 * rate limit, or an answer that could not be read. (Auth, bad input and not-found are answers.) The one rule:
 * the fetcher's own stale answers and answers derived from stale wider ones (derive/flow.ts) say it alike.
 */
export function staleReason(err: unknown): string | undefined {
  if (err instanceof QuotaSpentError) return 'daily limit reached';
  if (err instanceof RateLimitError)
    return err.daily ? `daily limit reached${err.resetAt ? `, resets ${err.resetAt}` : ''}` : 'rate limited';
  if (err instanceof NetworkError) return err.timeout ? 'offline (no answer in time)' : 'offline';
  // Hosts show it as is: "served from the cache (2 h old): service error".
  if (err instanceof ServerError) return 'service error';
  if (err instanceof SchemaDriftError)
    return `the service's answer was unusable: ${err.message.length > 120 ? `${err.message.slice(0, 119)}…` : err.message}`;
  return undefined;
}
