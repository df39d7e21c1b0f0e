import { GRID_REGIONS_KEYLESS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { gridRegions } from '../data/energy.js';
import { attribution, CITATION, CITE, SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { gatedMarkers } from '../policy/gating.js';

export const GRID_PROVENANCE = {
  basis_class: 'queue_snapshot_plus_editorial_baseline',
  cite_as: 'DC Hub, dchub.cloud',
  default_v: 'published',
  fallback_url: 'https://dchub.cloud/grid',
  license: 'CC-BY-4.0',
  method:
    'total_queue_gw sums generation requests of the sandbox queue snapshot per ISO; corridors and narratives are dated editorial baselines (synthetic)',
  provenance_revision: '1.1',
  provenance_version: 1,
  source: 'US ISO interconnection queues and DC Hub grid research (sandbox: synthetic)',
};

/** Every grid-intelligence region as of `nowMs`. */
export const gridRegionsAt = (ctx: SandboxContext, nowMs: number) => gridRegions(ctx.seed, ctx.data.queue, nowMs);

/** The region list; keyless callers see a preview of 3 of 5 regions. */
export function gridIntelligenceAnswer(ctx: SandboxContext, nowMs: number, keyless: boolean) {
  const regions = gridRegionsAt(ctx, nowMs);
  const shown = keyless ? regions.slice(0, GRID_REGIONS_KEYLESS) : regions;
  return {
    success: true,
    source: SOURCE,
    total: shown.length,
    regions: shown,
    provenance: GRID_PROVENANCE,
    _cite: CITE,
    citation: CITATION,
    note: SYNTHETIC_NOTICE,
    ...(keyless ? gatedMarkers(regions.length, shown.length) : {}),
  };
}

/** One region by id, or undefined. */
export function gridRegionAnswer(ctx: SandboxContext, nowMs: number, id: string) {
  const region = gridRegionsAt(ctx, nowMs).find((x) => x.id === id);
  if (!region) return undefined;
  const { _source: _s, ...labels } = attribution();
  return { success: true, source: SOURCE, region, provenance: GRID_PROVENANCE, ...labels };
}
