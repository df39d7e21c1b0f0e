import type { Context } from 'hono';
import { DAY_MS } from '../clock.js';
import type { Tier } from './tiers.js';

/**
 * Daily counters per caller and bucket, on the sandbox clock's UTC day. The keyless caller is
 * identified by address, keyed callers by key; counters reset at UTC midnight.
 */
export class DailyCounters {
  #day = -1;
  #counts = new Map<string, number>();

  /** Counts one use if it fits under `limit`; returns what is left, or -1 when over. */
  take(nowMs: number, bucket: string, limit: number): number {
    this.#roll(nowMs);
    const used = this.#counts.get(bucket) ?? 0;
    if (used >= limit) return -1;
    this.#counts.set(bucket, used + 1);
    return limit === Infinity ? Infinity : limit - used - 1;
  }

  used(nowMs: number, bucket: string): number {
    this.#roll(nowMs);
    return this.#counts.get(bucket) ?? 0;
  }

  reset(): void {
    this.#counts.clear();
  }

  #roll(nowMs: number): void {
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.#day) {
      this.#day = day;
      this.#counts.clear();
    }
  }
}

/** Seconds until the next UTC midnight, and that instant as ISO text. */
export function dailyReset(nowMs: number): { seconds: number; iso: string; epoch: number } {
  const next = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return {
    seconds: Math.max(1, Math.ceil((next - nowMs) / 1000)),
    iso: new Date(next).toISOString(),
    epoch: next / 1000,
  };
}

/** The key the caller sent: X-API-Key, or a bearer token (the real service accepts both). */
export const requestKey = (c: { req: { header(name: string): string | undefined } }): string | undefined =>
  (c.req.header('x-api-key') ?? /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1])?.trim();

/** Who is calling: the key when one was sent (X-API-Key or a bearer token), the client address otherwise. */
export function callerId(c: Context, tier: Tier, key = requestKey(c)): string {
  if (tier !== 'anonymous') return `key:${key}`;
  const fwd = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return `ip:${fwd || env?.incoming?.socket?.remoteAddress || 'local'}`;
}
