import { z } from 'zod';

/** CC-BY-4.0 citation object (spec §2.1). */
export const Citation = z.looseObject({
  source: z.string().optional(),
  url: z.string().optional(),
  license: z.string().optional(),
  cite_as: z.string().optional(),
});

/** Gated-preview markers (spec §5.3); present only on previews. */
export const GatedFields = {
  _gated: z.boolean().optional(),
  _preview_only: z.boolean().optional(),
  _required_tier: z.string().optional(),
  _total_available: z.number().nullable().optional(),
  _hidden_count: z.number().nullable().optional(),
  _signup_url: z.string().optional(),
  _upgrade_cta: z.string().optional(),
};

/**
 * The agent envelope (spec §2.1). Loose: extra members are kept, and `_entity` is any string
 * because live responses use values outside the declared enumeration.
 */
export const Envelope = z.looseObject({
  _entity: z.string(),
  ok: z.boolean().optional(),
  _source: z.string().optional(),
  _cite: z.string().optional(),
  citation: Citation.optional(),
  next_session: z.record(z.string(), z.unknown()).optional(),
  ...GatedFields,
});

export const DECLARED_ENTITIES = [
  'facility',
  'market',
  'grid',
  'fiber',
  'gas',
  'deal',
  'site',
  'news',
  'energy',
  'incentives',
  'risk',
  'index',
  'pipeline',
  'infrastructure',
  'export',
  'changes',
  'alert',
  'meta',
  'semantic_search',
  'error',
  'record',
] as const;

/** Error bodies (spec §7): always an `error` string; 401s add `auth_instructions`. */
export const ErrorBody = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  ok: z.literal(false).optional(),
  _entity: z.literal('error').optional(),
  auth_instructions: z.string().optional(),
  param: z.string().optional(),
});

export const Provenance = z.looseObject({
  provenance_version: z.number().optional(),
  source: z.string().optional(),
  method: z.string().optional(),
  default_v: z.string().optional(),
  license: z.string().optional(),
  cite_as: z.string().optional(),
  fallback_url: z.string().optional(),
});

export type EnvelopeT = z.infer<typeof Envelope>;
export type ErrorBodyT = z.infer<typeof ErrorBody>;
export type CitationT = z.infer<typeof Citation>;
