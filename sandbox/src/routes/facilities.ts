import { ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import {
  facilityById,
  facilityDetailAnswer,
  facilitySearchAnswer,
  semanticSearchAnswer,
} from '../domain/facilities.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.facilities,
    summary: 'Search the facility inventory by text, country and market (keyless callers get 5 rows with basic fields)',
    tags: ['Public'],
    responses: {
      200: { description: 'Matching facilities' },
      400: { description: 'A parameter is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => c.json(facilitySearchAnswer(ctx, c.get('tier'), query)),
  });

  r.add({
    ...ENDPOINTS.facilityDetail,
    summary: 'Full facility record: contacts, capacity, certifications (requires a key)',
    requires: 'free',
    responses: {
      200: { description: 'The full facility record' },
      400: { description: 'facility_id is not an integer', schema: ErrorBody },
      404: { description: 'No facility with this id', schema: ErrorBody },
    },
    handler: (c, { params }) => {
      const id = params.facility_id;
      const f = facilityById(ctx, id);
      if (!f) return c.json({ success: false, error: 'Facility not found', id }, 404);
      return c.json(facilityDetailAnswer(ctx, f));
    },
  });

  r.add({
    ...ENDPOINTS.semanticSearch,
    summary: 'Natural-language facility search ranked by TF-IDF similarity (Developer plan or higher)',
    requires: 'developer',
    responses: {
      200: { description: 'Facility matches, best first' },
      400: { description: 'query missing or topK out of range', schema: ErrorBody },
      403: { description: 'Plan below Developer', schema: ErrorBody },
    },
    handler: (c, { body }) => c.json(semanticSearchAnswer(ctx, body.query, body.topK)),
  });
}
