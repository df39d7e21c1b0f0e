import type { CallOptions, DchubClient, Fetched } from '../client.js';
import { ENDPOINTS } from '../endpoints.js';
import type { Endpoint, EndpointRequest } from '../resource.js';
import type { QueueFiltersT } from '../schemas/queue.js';
import { noteList } from './items.js';
import { BRIEF_FROM_ALL, DCPI_FROM_SCORES } from './pairs.js';
import { answerQueue } from './queue-answers.js';

/**
 * Where the derive setting meets the generic call: the endpoints it answers from cached wider
 * answers (the refined queue), and the lists it notes, once fetched, as sources of their items.
 */

/** The answer of a request derive answers (through the derive setting, fetching when it must), else undefined. */
export function derivedAnswer(
  client: DchubClient,
  e: Endpoint,
  req: EndpointRequest,
  opts: CallOptions,
): Promise<unknown> | undefined {
  if (e === ENDPOINTS.queue) return answerQueue(client, req.parsed as QueueFiltersT, opts);
  return undefined;
}

/** The lists that answer items (derive/pairs.ts). */
const LIST_PAIRS = [DCPI_FROM_SCORES, BRIEF_FROM_ALL];

/** After a fetch: a list answer that answers items is noted as their source (not when the cache was bypassed). */
export async function noteFetched(
  client: DchubClient,
  e: Endpoint,
  req: EndpointRequest,
  r: Fetched<unknown>,
  opts: CallOptions,
): Promise<void> {
  if (e.method !== 'get' || opts.cache === false) return;
  for (const pair of LIST_PAIRS)
    if (pair.listPath === req.path) await noteList(client, pair, req.params?.toString() ?? '', r);
}
