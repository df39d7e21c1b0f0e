/* global CustomFunctions */
import { fetchMeta, type CardContext, type CardHost } from '@dchub/core';
import { previewOf, provenance } from './notes';

/**
 * What the Excel running the add-in supports for cards, asked at each call (its requirement sets
 * do not change while it runs, and asking is cheap): cards need CustomFunctionsRuntime 1.4 (not
 * perpetual Office, not iPad, not builds before 2208); number formats on doubles and two-column
 * sections need ExcelApi 1.19. Undefined where cards are not supported: the card functions then
 * answer their table.
 */
export function cardHost(): CardHost | undefined {
  type Requirements = { isSetSupported(name: string, minVersion?: string): boolean };
  const req = (globalThis as { Office?: { context?: { requirements?: Requirements } } }).Office?.context?.requirements;
  try {
    if (!req?.isSetSupported('CustomFunctionsRuntime', '1.4')) return undefined;
    return { excelApi119: req.isSetSupported('ExcelApi', '1.19') };
  } catch {
    return undefined; // Office not ready: a table, never a card Excel cannot show
  }
}

/** How the answer behind a card was obtained, in the add-in's words: fetched when, stale why, what a preview withholds. */
export function cardContext(data: unknown, host: CardHost): CardContext {
  const meta = fetchMeta(data);
  const how = provenance(meta);
  return { host, retrievedAt: meta?.fetchedAt, stale: how?.kind === 'stale' ? how.text : undefined, preview: previewOf(data) };
}

/** A column of cards, or #N/A saying why there is none (an empty spill is not a value Excel accepts). */
export function cardColumn(cards: readonly unknown[], none: string): unknown[][] {
  if (!cards.length) throw new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, `DC Hub: ${none}`.slice(0, 255));
  return cards.map((c) => [c]);
}
