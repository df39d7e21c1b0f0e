import { z } from 'zod';
import { GatedFields, Provenance } from './envelope.js';
import { optionalNumber, optionalString } from './params.js';

/** Facility inventory: search (spec §4.1, notes §2.9) and the keyed detail record (spec §4.5). */

export const FACILITIES_DEFAULT_LIMIT = 25;
export const FACILITIES_MAX_LIMIT = 100;
/** Rows a keyless caller sees (notes §2.9: the free path returns at most 5). */
export const FACILITIES_KEYLESS_ROWS = 5;

/** ISO 3166-1 alpha-2 country code (two letters, any case; read upper-cased). */
export const countryCodeParam = optionalString({
  pattern: /^\s*[A-Za-z]{2}\s*$/,
  description: 'ISO 3166-1 alpha-2 country code, e.g. US, DE, SG',
}).transform((s) => s?.toUpperCase());

export const FacilitySearchQuery = z.object({
  q: optionalString({ maxLength: 200, description: 'Text matched against name, city, operator (provider) and market' }),
  country: countryCodeParam,
  limit: optionalNumber({
    min: 1,
    max: FACILITIES_MAX_LIMIT,
    int: true,
    description: 'Rows to return (default 25, max 100; keyless callers get at most 5)',
  }),
  market: optionalString({ maxLength: 100, description: 'Market slug or name' }),
  state: optionalString({ maxLength: 40, description: 'US state code' }),
  status: optionalString({ maxLength: 20, description: 'operational, construction or announced' }),
});

const ntext = z.string().nullable();

/**
 * The basic fields every caller sees. `state` is null for facilities of other countries; the keyed
 * answer (the legacy table) carries no `slug`, `state_name` or `location_display`.
 */
export const FacilityBasic = z.looseObject({
  id: z.union([z.number(), z.string()]).nullable(),
  name: z.string(),
  city: ntext,
  state: ntext,
  country: ntext,
  provider: ntext,
  slug: z.string().optional(),
  state_name: ntext.optional(),
  country_name: ntext.optional(),
  location_display: z.string().optional(),
});

/** A full search row (keyed callers). */
export const FacilityRow = FacilityBasic.extend({
  operator: ntext,
  market: ntext,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  power_mw: z.number().nullable(),
  status: ntext,
  v: z.string().optional(),
  confidence_badge: z.string().optional(),
});

export const FacilitySearch = z.looseObject({
  success: z.boolean(),
  data: z.array(FacilityBasic),
  count: z.number(),
  total_matching: z.number(),
  tier: z.string(),
  full_results_available: z.boolean().optional(),
  note: z.string().optional(),
  provenance: Provenance.optional(),
  ...GatedFields,
});

export const FacilityDetailRecord = FacilityRow.extend({
  address: z.string(),
  region: z.string(),
  capacity: z.looseObject({
    it_load_mw: z.number(),
    utility_power_mw: z.number(),
    white_space_sqft: z.number(),
    total_sqft: z.number(),
    pue_design: z.number(),
  }),
  certifications: z.array(z.string()),
  contacts: z.array(z.looseObject({ role: z.string(), name: z.string(), email: z.string(), phone: z.string() })),
  carriers: z.array(z.string()),
  year_opened: z.number().nullable(),
});

export const FacilityDetail = z.looseObject({
  success: z.literal(true),
  data: FacilityDetailRecord,
  note: z.string().optional(),
});

export type FacilityBasicT = z.infer<typeof FacilityBasic>;
export type FacilityRowT = z.infer<typeof FacilityRow>;
export type FacilitySearchT = z.infer<typeof FacilitySearch>;
export type FacilityDetailT = z.infer<typeof FacilityDetail>;
