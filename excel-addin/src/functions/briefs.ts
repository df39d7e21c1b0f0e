/* global CustomFunctions */
import type { NumberArg } from '@dchub/core';
import { formula } from './load';

/**
 * Header rows of a spilled table.
 * @customenum {number}
 */
enum HeaderRows {
  /** No header row */
  none = 0,
  /** A header row (default) */
  header = 1,
  /** A source/as-of row and a header row */
  source = 2,
}

/**
 * Market briefs of your tier, one row per market.
 * @customfunction BRIEFS
 * @param [limit] Page size (default 50; at most 50 below Pro, 500 from Pro).
 * @param [offset] Briefs to skip (default 0).
 * @param [headers] 0 none, 1 header row (default), 2 source row and header row.
 * @param invocation Invocation (set by Excel).
 * @returns One row per market: verdict, scores, MW, operators, dates.
 */
export function briefs(
  limit: unknown,
  offset: unknown,
  headers: HeaderRows,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(
    async ({ fetchBriefsAll, briefsAllTable, optional, callOptions, headerMode, serviceClient, spillAnswer }) => {
      const h = headerMode(headers);
      // The page as the cells give it: the service refuses a limit or offset that is not a whole number, naming it.
      const page = { limit: optional(limit) as number | undefined, offset: optional(offset) as number | undefined };
      const all = await fetchBriefsAll(await serviceClient(), page, callOptions(invocation));
      return spillAnswer(all, briefsAllTable(all), h);
    },
  );
}

/**
 * One market brief: every member as rows, or one member.
 * @customfunction BRIEF
 * @param slug Market slug or alias (nova, dfw, sv, nyc, ...).
 * @param [field] Member to return, e.g. "hero.verdict" or "kpis.operational_mw".
 * @param invocation Invocation (set by Excel).
 * @returns The brief as field/value rows, or the member named by field (one cell, or the rows of a group such as
 * "hero").
 * @requiresAddress
 */
export function brief(
  slug: unknown,
  field: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(
    async ({
      marketBrief,
      marketBriefFields,
      briefTable,
      optional,
      requiredText,
      tableOr,
      callOptions,
      serviceClient,
      oneCellAt,
    }) =>
      oneCellAt(invocation, 'BRIEF', [slug, field], async (at) => {
        const client = await serviceClient();
        const s = requiredText('slug', slug);
        if (optional(field) === undefined) {
          const b = await marketBrief(client, s, callOptions(invocation));
          return tableOr(b, field, () => briefTable(b), at);
        }
        // One member, through core's derive setting: a cached /all page answers a column of BRIEF cells.
        const f = requiredText('field', field);
        return tableOr(
          await marketBriefFields(client, s, f, callOptions(invocation)),
          f,
          () => ({ columns: [], rows: [] }),
          at,
        );
      }),
  );
}

/**
 * Power-readiness index (DCPI) of a market: the verdict, or any score.
 * @customfunction DCPI
 * @param slug Market slug (aliases such as nova, dfw, sv are accepted).
 * @param [field] Score to return instead of the verdict: composite_score, excess_power_score, constraint_score,
 * time_to_power_months, ...
 * @param invocation Invocation (set by Excel).
 * @returns BUILD, CAUTION or AVOID, or the score named by field.
 * @requiresAddress
 */
export function dcpi(
  slug: unknown,
  field: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown> {
  return formula(async ({ dcpiScoreFields, requiredText, optional, pick, callOptions, serviceClient, oneCellAt }) =>
    oneCellAt(invocation, 'DCPI', [slug, field], async (at) => {
      const f = optional(field) === undefined ? 'verdict' : requiredText('field', field);
      // Through core's derive setting: one DCPI scores list answers a column of DCPI cells.
      const s = await dcpiScoreFields(await serviceClient(), requiredText('slug', slug), f, callOptions(invocation));
      return pick(s, f, {
        ...at,
        shown: typeof s.verdict === 'string' && f !== 'verdict' ? `verdict: ${s.verdict}` : undefined,
      });
    }),
  );
}

/**
 * Markets ranked by AI-ready deployable MW.
 * @customfunction AICAPACITY
 * @param [horizon] Days ahead: 30, 60 or 90 (default 90).
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export function aicapacity(horizon: unknown, invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(async ({ aiCapacityIndex, aiCapacityTable, callOptions, serviceClient, spillAnswer }) => {
    const a = await aiCapacityIndex(await serviceClient(), { horizon: horizon as NumberArg }, callOptions(invocation));
    return spillAnswer(a, aiCapacityTable(a));
  });
}
