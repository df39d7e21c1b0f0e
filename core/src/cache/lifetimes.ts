/**
 * How long an answer stays fresh, following the service's own refresh cycles: market briefs are
 * cached 6 hours at the edge, DCPI is recomputed daily at 06:00 UTC, news refreshes every
 * 5 minutes, queue candidates live `candidate_ttl_days`.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const DCPI_RECOMPUTE_HOUR_UTC = 6;

/** Milliseconds until the next daily DCPI recompute after `now`. */
export function untilNextRecompute(now: number): number {
  const d = new Date(now);
  let next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), DCPI_RECOMPUTE_HOUR_UTC);
  if (next <= now) next += DAY;
  return next - now;
}

const RULES: Array<[RegExp, (now: number, body: unknown) => number]> = [
  [/^\/api\/v1\/market-brief\//, () => 6 * HOUR],
  [/^\/api\/v1\/(dcpi|ai-capacity-index)/, (now) => untilNextRecompute(now)],
  [/^\/api\/(v1\/)?(news|agent\/news|news-feed|news\/live)/, () => 5 * MINUTE],
  [
    /^\/api\/v1\/interconnection-queue\//,
    (_now, body) => {
      const days = (body as { candidate_ttl_days?: unknown } | undefined)?.candidate_ttl_days;
      return typeof days === 'number' && days > 0 ? days * DAY : DAY;
    },
  ],
  [/^\/api\/site-score/, () => 7 * DAY],
  [/^\/api\/v1\/(analyze-parcel|rank-sites)/, () => 7 * DAY],
  [/^\/api\/v1\/stats/, () => 5 * MINUTE],
  [/^\/api\/v1\/markets/, () => 30 * MINUTE],
  [/^\/api\/grid\/fuel-mix/, () => 5 * MINUTE],
  [/^\/api\/energy\/prices/, () => DAY],
  [/^\/api\/(v1\/)?(transactions|deals)/, () => HOUR],
  [/^\/api\/v1\/pipeline/, () => 6 * HOUR],
  [/^\/api\/v1\/facilities/, () => DAY],
];

/** Freshness lifetime of an answer from `path`, in ms. */
export function lifetimeFor(path: string, now: number, body?: unknown): number {
  for (const [re, f] of RULES) if (re.test(path)) return f(now, body);
  return HOUR;
}
