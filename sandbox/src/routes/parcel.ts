import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { measureParcel } from '../domain/parcel.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, _ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.analyzeParcel,
    summary:
      'Parcel analysis of a caller-supplied GeoJSON Polygon/MultiPolygon: geodesic acreage, representative point (largest member), contiguity, per-member breakdown and a site-evaluation handoff.',
    tags: ['Chain', 'Public'],
    envelopeErrors: true,
    responses: {
      200: { description: 'parcel_analysis envelope' },
      400: { description: 'Geometry missing or invalid (the error names the field)', schema: ErrorBody },
      413: { description: 'Body over 1 MB', schema: ErrorBody },
    },
    handler: (c, { body }) => c.json(measureParcel(body.geometry, body.capacity_mw)),
  });
}
