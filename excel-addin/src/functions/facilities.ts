/* global CustomFunctions */
import { formula } from './load';

/**
 * Facilities matching a text search.
 * @customfunction FACILITIES
 * @param query City, operator, market or name text.
 * @param [country] ISO 3166-1 alpha-2 country code, e.g. "US".
 * @param [limit] Maximum rows, 1-100 (default 25).
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
