import { realPresenters } from './real/index.js';
import { specPresenters } from './spec.js';
import { PROFILES, type Presenters, type Profile } from './types.js';

export { PROFILES, type Presenters, type Profile, type Shown } from './types.js';

/** The presenters of a profile (`DCHUB_SANDBOX_PROFILE`: spec, the default, or real). */
export function presentersFor(profile: string | undefined): Presenters {
  const p = (profile ?? 'spec') as Profile;
  if (!PROFILES.includes(p)) throw new Error(`DCHUB_SANDBOX_PROFILE: expected spec or real, got "${String(profile)}"`);
  return p === 'real' ? realPresenters() : specPresenters;
}
