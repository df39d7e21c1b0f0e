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
      closingRows,
      withoutPreviewNote,
      callOptions,
      serviceClient,
      spill,
    }) => {
      const q = {
        q: requiredText('query', query),
        country: optional(country as string),
        limit: optional(limit as number),
      };
      const r = await searchFacilities(await serviceClient(), q, callOptions(invocation));
      return spill(withoutPreviewNote(facilitiesTable(r), r), 1, closingRows(r), 'No facilities match this search');
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
  return formula(async ({ pipeline: fetchPipeline, pipelineTable, closingRows, callOptions, serviceClient, spill }) => {
    const r = await fetchPipeline(await serviceClient(), {}, callOptions(invocation));
    return spill(pipelineTable(r), 1, closingRows(r));
  });
}
