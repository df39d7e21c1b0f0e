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
  cardCandidates,
  compareMarkets,
  compareTable,
  dcpiLeaderboard,
  dcpiScore,
  dcpiScoreFields,
  dcpiTable,
  dealsTable,
  energyPrices,
  facilitiesTable,
  fetchBriefsAll,
  fieldTable,
  fuelMix,
  fuelMixTable,
  getMarket,
  leaderboardCards,
  leaderboardTable,
  listMarkets,
  marketBrief,
  marketBriefFields,
  marketCard,
  marketSlug,
  marketsTable,
  news,
  newsTable,
  parcelGeometry,
  parcelTable,
  parseScoringMode,
  pipeline,
  pipelineTable,
  platformStats,
  projectCards,
  queueTable,
  rankSites,
  rankedTable,
  refineQueue,
  runChain,
  searchFacilities,
  siteCard,
  siteScore,
  siteScoreTable,
  transactions,
} from '@dchub/core';
export {
  candidatesArg,
  constraintsArg,
  objectivesArg,
  optional,
  queueFilters,
  rangeOrText,
  requiredText,
} from './args';
export { cardOrTable, cardsOrTable } from './card-host';
export { oneCellAt, pick, tableOr } from './fields';
export { callOptions, headerMode, serviceClient, toCellError } from './service';
export { withoutPreviewNote } from './notes';
export { spill, spillAnswer } from './spill';
