/* global CustomFunctions */
import { formula } from './load';

/**
 * Scored markets of your tier with their summary statistics.
 * @customfunction MARKETS
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export function markets(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(async ({ listMarkets, marketsTable, withoutPreviewNote, callOptions, serviceClient, spillAnswer }) => {
    const m = await listMarkets(await serviceClient(), callOptions(invocation));
    return spillAnswer(m, withoutPreviewNote(marketsTable(m), m));
  });
}

/**
 * One market's details: every member as rows, or one member.
 * @customfunction MARKET
 * @param name Market slug or name (case-insensitive; hyphens and spaces are equal).
 * @param [field] Member to return, e.g. "stats.facility_count".
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows, or the member named by field (one cell, or the rows of a group).
 * @requiresAddress
 */
export function market(
  name: unknown,
  field: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async ({ getMarket, fieldTable, requiredText, tableOr, callOptions, serviceClient, oneCellAt }) =>
    oneCellAt(invocation, 'MARKET', [name, field], async (at) => {
      const m = await getMarket(await serviceClient(), requiredText('name', name), callOptions(invocation));
      return tableOr(m, field, () => fieldTable(m), at);
    }),
  );
}

/**
 * Two to four markets side by side.
 * @customfunction COMPARE
 * @param markets Two to four market slugs or names, comma-separated. Or a range of names.
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export function compare(markets: unknown[][], invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(
    async ({
      compareMarkets,
      compareTable,
      optional,
      rangeOrText,
      requiredText,
      callOptions,
      serviceClient,
      spillAnswer,
    }) => {
      const given = rangeOrText(markets);
      const list = Array.isArray(given)
        ? (given as unknown[][])
            .flat()
            .filter((v) => optional(v) !== undefined)
            .map(String)
        : requiredText('markets', given);
      const c = await compareMarkets(await serviceClient(), list, callOptions(invocation));
      return spillAnswer(c, compareTable(c));
    },
  );
}

/**
 * Platform totals: facilities, countries, providers, markets, articles, transactions, MW.
 * @customfunction STATS
 * @param invocation Invocation (set by Excel).
 * @returns Field/value rows.
 */
export function stats(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(async ({ platformStats, fieldTable, callOptions, serviceClient, spillAnswer }) => {
    const s = await platformStats(await serviceClient(), callOptions(invocation));
    const { data: _d, ...top } = s;
    return spillAnswer(s, fieldTable(top));
  });
}
