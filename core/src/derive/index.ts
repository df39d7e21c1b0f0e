export {
  DERIVE_MODES,
  WIDEN_UP_TO_DAILY_CALLS,
  defaultDeriveMode,
  parseDeriveMode,
  type DeriveMode,
} from './policy.js';
export { deriveQueueAnswer, echoFilters, whyNotWider, widenQueueFilters, type Derived } from './queue.js';
export { deriveModeOf } from './sources.js';
