// Where each DCHUB function's arguments come from (issue 26). An argument that stands for a parameter of a service
// endpoint names it (`endpoint.parameter`, an entry of core's ENDPOINTS): its help is that parameter's description
// in core's schema — the words /openapi.json and the Python API show — followed by what Excel adds (`excel`: the
// forms a cell or range takes, a rule of the add-in). An argument of the add-in's own (`own`) keeps the words of its
// JSDoc; `own` says why no schema describes it. scripts/param-help.mjs writes the help from this table;
// test/param-help.test.ts fails when an argument is in neither list or its help has drifted.

/** An argument standing for `endpoint.parameter`, with Excel's addition to its description. */
const from = (parameter, excel) => ({ from: parameter, ...(excel ? { excel } : {}) });
/** An argument of the add-in's own, and why. */
const own = (why) => ({ own: why });

const FIELD = own('a member of the answer by path: the add-in reads it out of the answer, the service never sees it');
const HEADERS = own("the spill's layout (header and source rows), not a question to the service");

const site = {
  lat: from('siteScore.lat'),
  lon: from('siteScore.lon'),
  capacity_mw: from('siteScore.capacity_mw'),
};

const queue = {
  iso: from('queue.iso', 'Blank for all.'),
  min_mw: from('queue.min_mw'),
  max_ttp_months: from('queue.max_ttp_months'),
  fuel_type: from('queue.fuel_type', 'For example "gas,nuclear".'),
  status: from('queue.status'),
  baseload_only: from('queue.baseload_only'),
  max_fiber_km: from('queue.max_fiber_km'),
  geocoded_only: from('queue.geocoded_only'),
  limit: from('queue.limit'),
};

const OBJECTIVES_IN_EXCEL = 'In Excel: a two-column range (field, weight) or "field:weight,..." text';

export const ARGUMENTS = {
  SITESCORE: { ...site, field: FIELD },
  SITECARD: site,
  QUEUE: { ...queue, headers: HEADERS },
  QUEUECARDS: { ...queue, limit: from('queue.limit', 'One card per row.') },
  RANK: {
    candidates: from(
      'rankSites.candidates',
      'In Excel: a range with a header row (id, lat, lon and metric columns), or a range of site or project cards.',
    ),
    objectives: from('rankSites.objectives', `${OBJECTIVES_IN_EXCEL}.`),
    constraints: from('rankSites.constraints', 'In Excel: a range (field, min, max) or "field:min:max,..." text.'),
    mode: own("one word for the request's two flags, absolute and percentile (core's parseScoringMode)"),
    top_k: from('rankSites.top_k'),
    headers: HEADERS,
  },
  CHAIN: {
    iso: queue.iso,
    min_mw: queue.min_mw,
    max_ttp_months: queue.max_ttp_months,
    objectives: from('rankSites.objectives', `${OBJECTIVES_IN_EXCEL}, e.g. "overall_score:1,fiber_km:-1".`),
    top_k: from('rankSites.top_k'),
  },
  BRIEFS: { limit: from('briefsAll.limit'), offset: from('briefsAll.offset'), headers: HEADERS },
  BRIEF: { slug: from('brief.slug'), field: FIELD },
  DCPI: { slug: from('dcpiMarket.market_slug'), field: FIELD },
  AICAPACITY: { horizon: from('aiCapacityIndex.horizon') },
  MARKETCARD: { name: from('dcpiMarket.market_slug', 'A market name also works (e.g. "Northern Virginia").') },
  MARKETCARDS: { verdict: from('dcpiLeaderboard.verdict'), limit: from('dcpiLeaderboard.limit') },
  MARKET: { name: from('market.market_name'), field: FIELD },
  COMPARE: { markets: from('marketCompare.markets', 'Or a range of names.') },
  FACILITIES: { query: from('facilities.q'), country: from('facilities.country'), limit: from('facilities.limit') },
  DEALS: {
    limit: from('transactions.limit'),
    deal_type: from('transactions.deal_type'),
    year: from('transactions.year', 'dchub.cloud asks keyed callers for a year, buyer or seller.'),
    buyer: from('transactions.buyer'),
    seller: from('transactions.seller'),
  },
  PRICE: { state: from('energyPrices.state') },
  NEWS: { limit: from('news.limit') },
  FUELMIX: { iso: from('fuelMix.iso', 'In Excel it is required.') },
  PARCEL: {
    geojson: from('analyzeParcel.geometry', 'In Excel: the geometry, or a Feature holding it, as text.'),
    capacity_mw: from('analyzeParcel.capacity_mw'),
    field: FIELD,
  },
  TOOL: {
    name: own('any of the MCP tools by name: the tool list, not a schema of the service, says which exist'),
    args: own("the tool's own arguments, typed by that tool's input schema when the call is made"),
  },
};
