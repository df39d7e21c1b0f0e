/* global CustomFunctions */
import type { SiteScoreQueryInput } from '@dchub/core';
import { formula } from './load';

/**
 * Cards (Excel data types): one cell holds a whole record, shows its name, opens as a card and
 * gives any field with dot syntax (`=A1.composite_score`). Core builds them (core/src/cards);
 * these functions fetch through the same cache as every formula and hand the answer over. Where
 * the Excel lacks cards (CustomFunctionsRuntime 1.4: perpetual Office, iPad, older builds), each
 * answers the matching table instead. None streams: Excel mishandles entities from streaming
 * functions (office-js #2931, #2932).
 */

// custom-functions-metadata reads these values with JSON.parse: they keep their double quotes.
// prettier-ignore
/**
 * DC Hub Power Index verdict.
 * @customenum {string}
 */
enum DcpiVerdict {
  /** Build */
  BUILD = "BUILD",
  /** Caution */
  CAUTION = "CAUTION",
  /** Avoid */
  AVOID = "AVOID",
  /** Low signal */
  LOW_SIGNAL = "LOW_SIGNAL",
}

/**
 * One market's card: its DC Hub Power Index (DCPI) verdict and scores, time to power, power inputs, risks and citation.
 * @customfunction MARKETCARD
 * @param name Market slug (aliases such as nova, dfw, sv are accepted). A market name also works (e.g. "Northern
 * Virginia").
 * @param invocation Invocation (set by Excel).
 * @returns A market card (=A1.composite_score); where Excel has no cards, the DCPI answer as field/value rows.
 */
export function marketcard(name: unknown, invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(
    async ({ dcpiScore, dcpiTable, marketCard, marketSlug, requiredText, callOptions, serviceClient, cardOrTable }) => {
      const d = await dcpiScore(await serviceClient(), marketSlug(requiredText('name', name)), callOptions(invocation));
      return cardOrTable(d, marketCard, dcpiTable);
    },
  );
}

/**
 * The DCPI leaderboard as a column of market cards, best composite score first.
 * @customfunction MARKETCARDS
 * @param [verdict] Verdict filter (default: every verdict but LOW_SIGNAL); one of BUILD, CAUTION, AVOID, LOW_SIGNAL,
 * NODATA (any case).
 * @param [limit] Markets to return, 1-100 (default 25).
 * @param invocation Invocation (set by Excel).
 * @returns One market card per row; where Excel has no cards, the leaderboard as a table.
 */
export function marketcards(
  verdict: DcpiVerdict,
  limit: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async (e) => {
    const { dcpiLeaderboard, leaderboardTable, leaderboardCards, optional, callOptions, serviceClient, cardsOrTable } =
      e;
    // The cells as Excel passes them: core's schema reads them and refuses a wrong one by name.
    const lb = await dcpiLeaderboard(
      await serviceClient(),
      { verdict: optional(verdict), limit: optional(limit) as number | undefined },
      callOptions(invocation),
    );
    return cardsOrTable(lb, leaderboardCards, leaderboardTable, {
      table: 'No markets match these arguments',
      cards: 'no markets match these arguments',
    });
  });
}

/**
 * One site's card: overall score and interpretation, location, sub-scores, fiber and nearby infrastructure, capacity
 * context.
 * @customfunction SITECARD
 * @param lat Latitude in decimal degrees, -90 to 90.
 * @param lon Longitude in decimal degrees, -180 to 180.
 * @param [capacity_mw] Target load in MW.
 * @param invocation Invocation (set by Excel).
 * @returns A site card (=A1.overall_score, =A1.fiber.connectivity_score); where Excel has no cards, the site score as
 * field/value rows.
 */
export function sitecard(
  lat: unknown,
  lon: unknown,
  capacity_mw: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async ({ siteScore, siteScoreTable, siteCard, callOptions, serviceClient, cardOrTable }) => {
    // Cell values as Excel passes them: core's schema reads them and refuses a wrong one by name.
    const s = await siteScore(
      await serviceClient(),
      { lat, lon, capacity_mw } as SiteScoreQueryInput,
      callOptions(invocation),
    );
    return cardOrTable(s, siteCard, siteScoreTable);
  });
}

/**
 * Interconnection-queue projects that pass every filter, as a column of project cards.
 * @customfunction QUEUECARDS
 * @param [iso] Comma-separated union of PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE (ISONE accepted), any case. Blank
 * for all.
 * @param [min_mw] Minimum project capacity, MW.
 * @param [max_ttp_months] Keep ISOs whose average time to power is at or under this many months.
 * @param [fuel_type] Case-insensitive substring of the raw fuel label; comma or semicolon separates a union. For
 * example "gas,nuclear".
 * @param [status] "active" (default) drops withdrawn, cancelled, suspended and operating projects; "all" keeps every
 * status; other text is a substring match.
 * @param [baseload_only] Keep firm/dispatchable fuels only, dropping wind, solar and storage (default false).
 * @param [max_fiber_km] Maximum km to the nearest mapped long-haul fiber endpoint; implies geocoded rows.
 * @param [geocoded_only] Keep survivors with latitude and longitude (default false).
 * @param [limit] Maximum rows returned, 1-1000 (default 200). One card per row.
 * @param invocation Invocation (set by Excel).
 * @returns One project card per survivor (=A2#.capacity_mw); where Excel has no cards, QUEUE's table.
 */
export function queuecards(
  iso: unknown,
  min_mw: unknown,
  max_ttp_months: unknown,
  fuel_type: unknown,
  status: unknown,
  baseload_only: unknown,
  max_fiber_km: unknown,
  geocoded_only: unknown,
  limit: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  const cells = [iso, min_mw, max_ttp_months, fuel_type, status, baseload_only, max_fiber_km, geocoded_only, limit];
  return formula(
    async ({ refineQueue, queueTable, projectCards, queueFilters, callOptions, serviceClient, cardsOrTable }) => {
      const r = await refineQueue(await serviceClient(), queueFilters(cells), callOptions(invocation));
      return cardsOrTable(r, projectCards, queueTable, {
        table: 'No queued projects match these filters',
        cards: r._error_mitigation?.deterministic_hint ?? 'no queued projects match these filters',
      });
    },
  );
}
