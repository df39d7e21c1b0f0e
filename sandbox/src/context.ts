import type { SandboxClock } from './clock.js';
import type { Dataset } from './dataset.js';

export type Tier = 'anonymous' | 'free' | 'starter' | 'developer' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['anonymous', 'free', 'starter', 'developer', 'pro', 'enterprise'];

/** What every route reads: the data, the clock and the keys. */
export interface SandboxContext {
  seed: string;
  data: Dataset;
  clock: SandboxClock;
  /** API key → tier; claimed keys are added at run time. */
  keys: Map<string, Tier>;
}
