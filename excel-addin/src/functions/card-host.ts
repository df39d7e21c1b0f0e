/* global CustomFunctions */
import { fetchMeta, type CardContext, type CardHost, type Table } from '@dchub/core';
import { cardSupport } from '../shared/card-support';
import { previewOf, provenance } from './notes';
import { spillAnswer } from './spill';

/**
 * What the host supports for cards (../shared/card-support), or undefined where it has none: the card functions then
 * answer their table.
 */
export function cardHost(): CardHost | undefined {
  const support = cardSupport();
  return support === 'none' ? undefined : { excelApi119: support === 'formatted' };
}

/**
 * How the answer behind a card was obtained, in the add-in's words: fetched when, stale why, what a preview withholds.
 */
export function cardContext(data: unknown, host: CardHost): CardContext {
  const meta = fetchMeta(data);
  const how = provenance(meta);
  return {
    host,
    retrievedAt: meta?.fetchedAt,
    stale: how?.kind === 'stale' ? how.text : undefined,
    preview: previewOf(data),
  };
}

/** A column of cards, or #N/A saying why there is none (an empty spill is not a value Excel accepts). */
export function cardColumn(cards: readonly unknown[], none: string): unknown[][] {
  if (!cards.length)
    throw new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, `DC Hub: ${none}`.slice(0, 255));
  return cards.map((c) => [c]);
}

/** One answer's card; where Excel has no cards, the answer's table (field/value rows) with its closing rows. */
export function cardOrTable<T>(data: T, card: (data: T, context: CardContext) => unknown, table: (data: T) => Table) {
  const host = cardHost();
  return host ? [[card(data, cardContext(data, host))]] : spillAnswer(data, table(data));
}

/**
 * An answer's records as a column of cards (#N/A saying `none` when there is none); where Excel has no cards, the
 * answer's table with its closing rows (`empty` when it has no rows).
 */
export function cardsOrTable<T>(
  data: T,
  cards: (data: T, context: CardContext) => readonly unknown[],
  table: (data: T) => Table,
  empty: { table: string; cards: string },
): unknown[][] {
  const host = cardHost();
  if (!host) return spillAnswer(data, table(data), 1, empty.table);
  return cardColumn(cards(data, cardContext(data, host)), empty.cards);
}
