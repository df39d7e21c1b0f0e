/* global CustomFunctions */
import { formula } from './load';

/**
 * Facilities matching a text search.
 * @customfunction FACILITIES
 * @param query Text matched against name, city, operator (provider) and market.
 * @param [country] ISO 3166-1 alpha-2 country code, e.g. US, DE, SG.
 * @param [limit] Rows to return (default 25, max 100; keyless callers get at most 5).
 * @param invocation Invocation (set by Excel).
 * @returns One row per facility.
 */
export function facilities(
  query: unknown,
  country: unknown,
  limit: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(
    async ({
      searchFacilities,
      facilitiesTable,
      optional,
      requiredText,
      withoutPreviewNote,
      callOptions,
      serviceClient,
      spillAnswer,
    }) => {
      const q = {
        q: requiredText('query', query),
        country: optional(country as string),
        limit: optional(limit as number),
      };
      const r = await searchFacilities(await serviceClient(), q, callOptions(invocation));
      return spillAnswer(r, withoutPreviewNote(facilitiesTable(r), r), 1, 'No facilities match this search');
    },
  );
}

/**
 * Facilities under construction or announced.
 * @customfunction PIPELINE
 * @param invocation Invocation (set by Excel).
 * @returns One row per project.
 */
export function pipeline(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return formula(async ({ pipeline: fetchPipeline, pipelineTable, callOptions, serviceClient, spillAnswer }) => {
    const r = await fetchPipeline(await serviceClient(), {}, callOptions(invocation));
    return spillAnswer(r, pipelineTable(r));
  });
}
