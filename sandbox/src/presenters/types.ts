import type { Context } from 'hono';
import type { z } from 'zod';
import type { QueueResultT, SiteScoreQueryT, SiteScoreT } from '@dchub/core';
import type { SandboxClock } from '../clock.js';
import type { DailyCounters } from '../policy/limits.js';
import type { SandboxEnv } from '../http.js';
import type { Tier } from '../policy/tiers.js';

/**
 * Which counterpart the sandbox plays: `spec` serves the interface spec's shapes (the default);
 * `real` serves the real service's shapes and quirks (reference notes), for testing clients
 * against what dchub.cloud actually answers. The domain computes; the profile decides the shape.
 */
export type Profile = 'spec' | 'real';
export const PROFILES: readonly Profile[] = ['spec', 'real'];

/** An answer chosen by a presenter: a body with a status and extra headers. */
export interface Shown {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Body = Record<string, unknown>;
export type Ctx = Context<SandboxEnv>;
/** What a presenter may count with (the context's counters, clock and limit switch). */
export type Allowances = { enforceLimits: boolean; counters: DailyCounters; clock: SandboxClock };

/** Per-route access: the tier a route requires and the answer to a caller below it. */
export interface AccessPresenter {
  /** The tier a path requires under this profile (the route's own `requires` unless the profile walls it). */
  required(path: string, declared: Tier | undefined): Tier | undefined;
  /** The refusal of a caller below `required`. */
  refuse(c: Ctx, tier: Tier, required: Tier): Shown;
  /** Headers on every counted answer. */
  allowanceHeaders(tier: Tier, limit: number, left: number, resetEpoch: number): Record<string, string>;
  /** The 429 of a spent daily allowance. */
  dailyLimit(tier: Tier, limit: number, reset: { seconds: number; iso: string; epoch: number }): Shown;
  /** Headers and body extras of a 401 for an unknown key. */
  unknownKeyHeaders(): Record<string, string>;
}

export interface QueuePresenter {
  /** True when this tier gets the gated preview rather than the full answer. */
  previewFor(tier: Tier): boolean;
  /** `sent`: the query parameters the caller actually sent. */
  present(body: QueueResultT, preview: boolean, sent: readonly string[]): Body;
  /** Headers of a full answer. */
  fullHeaders(): Record<string, string>;
}

export interface SitePresenter {
  /**
   * The query the profile reads and documents (spec: `lon`, `capacity_mw`; the real service reads `lon` and `capacity`
   * only).
   */
  query: z.ZodType<SiteScoreQueryT, Record<string, unknown>>;
  /** Aliases folded in before validation (spec: `lng`, `capacity`). */
  prepareQuery?: (q: Record<string, string>) => Record<string, unknown>;
  /** Refusal before scoring (e.g. a zero coordinate, or a paid wall), if any. */
  refuse(c: Ctx, ctx: Allowances, tier: Tier, q: { lat: number; lon: number }): Shown | undefined;
  present(score: SiteScoreT, tier: Tier): Body;
}

export interface Presenters {
  profile: Profile;
  access: AccessPresenter;
  queue: QueuePresenter;
  site: SitePresenter;
  /** DCPI of one market. */
  dcpiMarket(body: Body, tier: Tier): Body;
  /** AI capacity index: the tiers that get the tease, and the tease markers. */
  aiCapacityGated(tier: Tier): boolean;
  aiCapacity(body: Body, gated: boolean): Body;
  /**
   * Transactions of the gated listing (/api/v1/transactions): `compute(filtered, limit)` runs the
   * domain query with (true) or without (false) the caller's filters.
   */
  transactions(
    c: Ctx,
    tier: Tier,
    q: { year?: number; buyer?: string; seller?: string },
    compute: (filtered: boolean, limit?: number) => Body,
  ): Shown;
  /** Energy prices of a state. */
  energyPrices(body: Body): Body;
  /** The answer schemas this profile's shapes follow, for its /openapi.json (where they differ from the spec's). */
  schemas: { energyPrices: z.ZodType; briefAll: z.ZodType; briefDiff: z.ZodType; transactions: z.ZodType };
  /** Briefs of /all and /diff, and the CSV lines, with any that failed to build. */
  briefFails(seed: string, slug: string, day: number): boolean;
  failedBrief(slug: string): Body;
  failedCsvLine(slug: string, columns: number): string;
  /** MCP tool answers. */
  mcpWall(wall: Body): { content: Array<{ type: 'text'; text: string }>; structuredContent: Body; isError: true };
  mcpPartial(tool: string, listKey: string, total: number): { rows: number; extra: Body; tail?: string };
}
