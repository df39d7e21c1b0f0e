import { ENDPOINTS } from './endpoints.js';
import { tableFor } from './resource.js';
import { byInput } from './resource-call.js';

export { QUEUE_PATH } from './derive/queue-answers.js';
export { QUEUE_COLUMNS } from './resources/queue.js';

/**
 * Server-side reduction of the interconnection queue (spec §4.2). Answered from a cached wider
 * answer when one provably holds it (`fetchMeta(r).derivedFrom` says which), per the client's
 * `derive` setting.
 */
export const refineQueue = /* @__PURE__ */ byInput(ENDPOINTS.queue);

/**
 * The survivors as a table. What the service explains (the ISOs a time-to-power cut excluded, its
 * hint when the cut emptied the set) is `fetchMeta(result).explanations`, shown by every host.
 */
export const queueTable = /* @__PURE__ */ tableFor(ENDPOINTS.queue);
