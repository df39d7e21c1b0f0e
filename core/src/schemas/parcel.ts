import { z } from 'zod';

// Response and request schemas of this resource (to be filled in).
export const _parcelPlaceholder = z.never().optional();
