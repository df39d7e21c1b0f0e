/* global CustomFunctions */
import { formula, stream } from './load';

// custom-functions-metadata reads these values with JSON.parse: they keep their double quotes.
// prettier-ignore
/**
 * Deal types.
 * @customenum {string}
 */
enum DealType {
  acquisition = "acquisition",
  investment = "investment",
  joint_venture = "joint_venture",
  lease = "lease",
  development = "development",
  merger = "merger",
}

// custom-functions-metadata reads these values with JSON.parse: they keep their double quotes.
// prettier-ignore
/**
 * Grid operators with a live fuel mix.
 * @customenum {string}
 */
enum GridIso {
  ERCOT = "ERCOT",
  PJM = "PJM",
  CAISO = "CAISO",
  MISO = "MISO",
  SPP = "SPP",
  NYISO = "NYISO",
  ISONE = "ISONE",
}

/**
 * Recent M&A and investment transactions.
 * @customfunction DEALS
 * @param [limit] Deals to return, 1-500 (default 20; 100 on /api/deals and /api/v1/deals).
 * @param [deal_type] Deal type; one of acquisition, investment, joint_venture, lease, development, merger (any case).
 * @param [year] Calendar year of the deal. dchub.cloud asks keyed callers for a year, buyer or seller.
 * @param [buyer] Case-insensitive buyer substring.
 * @param [seller] Case-insensitive seller substring.
 * @param invocation Invocation (set by Excel).
 * @returns One row per deal.
 */
export function deals(
  limit: unknown,
  deal_type: DealType,
  year: unknown,
  buyer: unknown,
  seller: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(
    async ({ transactions, dealsTable, optional, withoutPreviewNote, callOptions, serviceClient, spillAnswer }) => {
      const q = {
        limit: optional(limit as number),
        deal_type: optional(deal_type as string),
        year: optional(year as number),
        buyer: optional(buyer as string),
        seller: optional(seller as string),
      };
      const r = await transactions(await serviceClient(), q, callOptions(invocation));
      return spillAnswer(r, withoutPreviewNote(dealsTable(r), r, 'Values in millions USD'), 1, 'No deals match');
    },
  );
}

/**
 * Industrial retail electricity price of a US state, in cents per kWh.
 * @customfunction PRICE
 * @param state US state code or name, any case (TX, texas, DC, New York).
 * @param invocation Invocation (set by Excel).
 * @returns Cents per kWh.
 * @requiresAddress
 */
export function price(state: unknown, invocation: CustomFunctions.CancelableInvocation): Promise<unknown> {
  return formula(async ({ energyPrices, requiredText, callOptions, serviceClient, pick, oneCellAt }) =>
    oneCellAt(invocation, 'PRICE', [state], async (at) => {
      const r = await energyPrices(await serviceClient(), requiredText('state', state), callOptions(invocation));
      return pick(r, 'industrial_price_cents_kwh', at);
    }),
  );
}

/**
 * Latest industry news, refreshed every 5 minutes.
 * @customfunction NEWS
 * @param [limit] Articles to return, 1-200 (default 10; 50 on the alias paths).
 * @param invocation Invocation (set by Excel).
 * @returns One row per article.
 */
export function news(limit: unknown, invocation: CustomFunctions.StreamingInvocation<unknown[][]>): void {
  stream(
    invocation,
    5 * 60_000,
    async ({ news: fetchNews, newsTable, optional, serviceClient, spillAnswer }, refresh) => {
      const r = await fetchNews(await serviceClient(), { limit: optional(limit as number) }, { refresh });
      return spillAnswer(r, newsTable(r), 1, 'No news');
    },
  );
}

/**
 * Live fuel mix of a grid operator, refreshed every 5 minutes.
 * @customfunction FUELMIX
 * @param iso Grid operator (default ERCOT; ISONE also as ISO-NE); one of ERCOT, PJM, CAISO, MISO, SPP, NYISO, ISONE
 * (any case). In Excel it is required.
 * @param invocation Invocation (set by Excel).
 * @returns One row per fuel: source, MW, percentage.
 */
export function fuelmix(iso: GridIso, invocation: CustomFunctions.StreamingInvocation<unknown[][]>): void {
  stream(
    invocation,
    5 * 60_000,
    async ({ fuelMix, fuelMixTable, requiredText, serviceClient, spillAnswer }, refresh) => {
      const r = await fuelMix(await serviceClient(), requiredText('iso', iso), { refresh });
      return spillAnswer(r, fuelMixTable(r));
    },
  );
}
