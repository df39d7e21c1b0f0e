import { z } from 'zod';

// Response and request schemas of this resource (to be filled in).
export const _agentPlaceholder = z.never().optional();
