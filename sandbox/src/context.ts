import type { SandboxClock } from './clock.js';
import type { Dataset } from './dataset.js';
import type { FaultInjector } from './policy/faults.js';
import type { DailyCounters } from './policy/limits.js';
import type { Tier } from './policy/tiers.js';
import type { Presenters, Profile } from './presenters/types.js';

/** What every route reads: the data, the clock, the keys and the per-day counters. */
export interface SandboxContext {
  seed: string;
  data: Dataset;
  clock: SandboxClock;
  /** API key → tier; keys claimed at run time are added here. */
  keys: Map<string, Tier>;
  counters: DailyCounters;
  faults: FaultInjector;
  /** Test controls (/_sandbox/*) are mounted only when true (DCHUB_SANDBOX_CONTROLS=1). */
  controls: boolean;
  /** Daily limits enforced (always, unless a test turns them off explicitly). */
  enforceLimits: boolean;
  /** spec (default) or real: which counterpart's shapes the answers take. */
  profile: Profile;
  /** The profile's presenters: the domain computes, these decide the shape. */
  presenters: Presenters;
}
