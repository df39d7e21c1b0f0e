/* global CustomFunctions */
import { formula } from './load';

/**
 * Scored markets of your tier with their summary statistics.
 * @customfunction MARKETS
 * @param invocation Invocation (set by Excel).
 * @returns One row per market.
 */
export function markets(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(
    async ({ listMarkets, marketsTable, closingRows, withoutPreviewNote, callOptions, serviceClient, spill }) => {
      const m = await listMarkets(await serviceClient(), callOptions(invocation));
      return spill(withoutPreviewNote(marketsTable(m), m), 1, closingRows(m));
    },
  );
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
  return formula(
    async ({ getMarket, fieldTable, requiredText, tableOr, callOptions, serviceClient, cellOf, oneCellFormula }) => {
      const at = { cell: cellOf(invocation, 'MARKET', [name, field]), formula: 'MARKET' };
      return oneCellFormula(at, async () => {
        const m = await getMarket(await serviceClient(), requiredText('name', name), callOptions(invocation));
        return tableOr(m, field, () => fieldTable(m), at);
      });
    },
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
      closingRows,
      callOptions,
      serviceClient,
      spill,
    }) => {
      const given = rangeOrText(markets);
      const list = Array.isArray(given)
        ? (given as unknown[][])
            .flat()
            .filter((v) => optional(v) !== undefined)
            .map(String)
        : requiredText('markets', given);
      const c = await compareMarkets(await serviceClient(), list, callOptions(invocation));
      return spill(compareTable(c), 1, closingRows(c));
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
  return formula(async ({ platformStats, fieldTable, closingRows, callOptions, serviceClient, spill }) => {
    const s = await platformStats(await serviceClient(), callOptions(invocation));
    const { data: _d, ...top } = s;
    return spill(fieldTable(top), 1, closingRows(s));
  });
}
