/**
 * The engine chunk: what the formulas use from core and the add-in's helpers, named one by one
 * (a module loaded with import() counts as wholly used, so `export *` from core would drag the MCP
 * client in).
 */
export {
  DCPI_CITATION,
  NotCachedError,
  ValidationError,
  aiCapacityIndex,
  aiCapacityTable,
  analyzeParcel,
  briefTable,
  briefsAllTable,
  compareMarkets,
  compareTable,
  dcpiScoreFields,
  dealsTable,
  energyPrices,
  facilitiesTable,
  fetchBriefsAll,
  fieldTable,
  fuelMix,
  fuelMixTable,
  getMarket,
  listMarkets,
  marketBrief,
  marketBriefFields,
  marketsTable,
  news,
  newsTable,
  parcelGeometry,
  parcelTable,
  parseScoringMode,
  pipeline,
  pipelineTable,
  platformStats,
  queueTable,
  rankSites,
  rankedTable,
  refineQueue,
  runChain,
  searchFacilities,
  siteScore,
  transactions,
} from '@dchub/core';
export { constraintsArg, objectivesArg, optional, rangeOrText, rangeRecords, requiredText } from './args';
export { pick, tableOr } from './fields';
export { callOptions, headerMode, serviceClient, toCellError } from './service';
export { answerNotes, cellOf, oneCellFormula, withoutPreviewNote } from './notes';
export { spill } from './spill';
