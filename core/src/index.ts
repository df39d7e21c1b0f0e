export * from './schemas/index.js';
export * from './errors.js';
export * from './client.js';
export { checkApiKey } from './api-key.js';
export { normalizeBaseUrl } from './http/baseurl.js';
export * from './connect.js';
export * from './cache/index.js';
export * from './table.js';
export * from './validate.js';
export * from './endpoints.js';
export {
  answerTable,
  citationIn,
  isCacheable,
  requestOf,
  searchParamsOf,
  shapeAnswer,
  tableOf,
  type AnswerFacts,
  type Executable,
  type Shaped,
  type ShapedRecord,
  type ShapedTable,
  type TableShape,
} from './resource.js';
export { call, fetchAnswer, fetchData, type Answer, type EndpointCallOptions, type Fetch } from './resource-call.js';
export * from './queue.js';
export * from './sites.js';
export * from './briefs.js';
export * from './paging.js';
export * from './plans.js';
export * from './csv.js';
export * from './ranking.js';
export * from './ranking-args.js';
export { isBlank, namedValues, nestingDepth, numberOf, scalarText, type NamedValue } from './args.js';
export * from './parcel.js';
export * from './chain.js';
export * from './markets.js';
export * from './facilities.js';
export * from './feeds.js';
export * from './energy.js';
export * from './agent.js';
export * from './mcp.js';
export { toolExplanations, toolRefusal } from './mcp-answers.js';
export * from './tool-args.js';
export * from './derive/index.js';
export * from './preview.js';
export * from './notes.js';
export * from './explain.js';
export * from './read/index.js';
export * from './excel-date.js';
export * from './cards/index.js';
export { VERSION } from './version.js';
