import {
  dealsTable,
  energyPrices,
  facilitiesTable,
  fuelMix,
  fuelMixTable,
  news,
  newsTable,
  pipeline,
  pipelineTable,
  searchFacilities,
  transactions,
  type CallOptions,
} from '@dchub/core';
import { optional, requiredText } from './args';
import { answerNotes, serviceClient } from './service';
import { spill } from './spill';

export async function facilitiesCall(query: unknown, country: unknown, limit: unknown, opts: CallOptions) {
  const r = await searchFacilities(await serviceClient(), { q: requiredText('query', query), country: optional(country as string), limit: optional(limit as number) }, opts);
  return spill(facilitiesTable(r), 1, answerNotes(r), 'No facilities match this search');
}

export async function dealsCall(limit: unknown, dealType: unknown, opts: CallOptions) {
  const r = await transactions(await serviceClient(), { limit: optional(limit as number), deal_type: optional(dealType as string) }, opts);
  return spill(dealsTable(r), 1, answerNotes(r), 'No deals match');
}

export async function pipelineCall(opts: CallOptions) {
  const r = await pipeline(await serviceClient(), {}, opts);
  return spill(pipelineTable(r), 1, answerNotes(r));
}

export async function priceCall(state: string, opts: CallOptions): Promise<number> {
  const r = await energyPrices(await serviceClient(), state, opts);
  return r.industrial_price_cents_kwh;
}

export async function newsCall(limit: unknown, opts: CallOptions) {
  const r = await news(await serviceClient(), { limit: optional(limit as number) }, opts);
  return spill(newsTable(r), 1, answerNotes(r), 'No news');
}

export async function fuelMixCall(iso: unknown, opts: CallOptions) {
  const r = await fuelMix(await serviceClient(), requiredText('iso', iso), opts);
  return spill(fuelMixTable(r), 1, answerNotes(r));
}

/** Calls left today, from the ledger (no network call). */
export async function quotaLeft(): Promise<number> {
  const client = await serviceClient();
  return client.ledger ? client.ledger.remaining() : Infinity;
}
