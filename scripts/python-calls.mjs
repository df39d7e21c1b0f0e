// The Python API's presentation of core's notebook methods, which scripts/gen-python.mjs generates the calls of
// Client from: what only Python says of each call. Types and argument descriptions come from core's schemas.

/**
 * The Python presentation of each notebook method, by module (`calls_<name>.py`, a class each): `doc` its summary
 * (paragraphs; the first a line of its own), `answers` the pandas object (`DataFrame`, `Series`, `Series if <arg>
 * else DataFrame`, `DataFrame or data`), `cached: false` for a call that never reads the cache (no `refresh`),
 * `keywords` the arguments that are keyword-only, `progress` for a call that reports progress.
 */
export const SECTIONS = {
  sites: {
    title: 'the queue, site scores, the ranking and parcels',
    methods: {
      queue: {
        doc: [
          'Interconnection-queue survivors of the refined search (spec §4.2).',
          '``attrs`` hold ``count_total_matching`` and, when the time-to-power cut emptied the set, the ``note`` ' +
            'and ``suggested_max_ttp_months``.',
        ],
        answers: 'DataFrame',
      },
      site_score: { doc: ['Scores a location (spec §2.3): the overall score and every member.'], answers: 'Series' },
      rank: { doc: ['Ranks candidate sites (spec §4.4).'], answers: 'DataFrame', cached: false },
      chain: {
        doc: ["Queue → site score → ranking in one call, within today's calls."],
        answers: 'DataFrame',
        cached: false,
        progress: true,
      },
      parcel: {
        doc: [
          'Acreage, representative point and site hand-off of a GeoJSON Polygon or MultiPolygon.',
          '``geometry``: a dict, GeoJSON text, a Feature/FeatureCollection (its first feature), or a file path.',
        ],
        answers: 'Series',
        cached: false,
      },
    },
  },
  markets: {
    title: 'market briefs, the DCPI and markets',
    methods: {
      briefs: {
        doc: [
          'Market briefs of your tier, every page (or one page with ``limit``/``offset``).',
          'Columns as the brief CSV\'s; a brief the service failed to build is named in ``attrs["failed"]``.',
        ],
        answers: 'DataFrame',
      },
      briefs_diff: {
        doc: ['The briefs recomputed after ``since``, every page of ``/diff``; never from the cache.'],
        answers: 'DataFrame',
        cached: false,
      },
      brief: {
        doc: [
          'One market brief.',
          'With ``fields`` only those, answered from a cached /all page that holds the market when one does ' +
            '(``attrs["derived_from"]``).',
        ],
        answers: 'Series',
      },
      dcpi: {
        doc: [
          "One market's power-readiness scores (a Series), or without ``market`` the leaderboard.",
          'With ``fields`` (``"verdict"``, ``["verdict", "composite_score"]``) only those, answered from a cached ' +
            'scores list that carries them exactly when one does, or — per ``derive`` — from the list fetched ' +
            'once for every market (``attrs["derived_from"]`` says so).',
        ],
        answers: 'Series if market else DataFrame',
        keywords: ['verdict', 'limit'],
      },
      dcpi_scores: {
        doc: [
          "Every market's DCPI row with its coordinates (numbers null below a paid plan).",
          'The source of ``charts.markets_map`` and ``charts.market_quadrant``.',
        ],
        answers: 'DataFrame',
      },
      markets: {
        doc: ['Scored markets of your tier (``attrs["note"]`` says how many more a higher tier sees).'],
        answers: 'DataFrame',
      },
      market: { doc: ["One market's details."], answers: 'Series' },
    },
  },
  feeds: {
    title: 'facilities, feeds, energy, receipts and the MCP tools',
    methods: {
      facilities: { doc: ['Facilities matching a text, a country, a market, state or status.'], answers: 'DataFrame' },
      news: { doc: ['News articles, newest first.'], answers: 'DataFrame' },
      deals: { doc: ['M&A and investment deals, newest first; ``value`` in millions USD.'], answers: 'DataFrame' },
      pipeline: {
        doc: ['Projects under construction or announced (``capacity`` MW, ``investment`` M USD).'],
        answers: 'DataFrame',
      },
      fuel_mix: { doc: ['Generation by fuel of a US grid operator (``attrs["iso"]``).'], answers: 'DataFrame' },
      prices: {
        doc: ['Retail electricity prices of a US state (cents per kWh), with the 12-month trend.'],
        answers: 'Series',
      },
      grid_regions: {
        doc: ["The grid regions (spec §2.8) with their provenance in ``attrs['provenance']``."],
        answers: 'DataFrame',
      },
      receipts: { doc: ['Published model-evaluation runs (spec §2.9).'], answers: 'DataFrame' },
      tool: {
        doc: [
          'Calls one of the 29 MCP tools, its arguments by name.',
          'A DataFrame when the answer holds a list of records (a list the server cut for you says so in ' +
            '``attrs["preview"]["partial"]``), else its data. A plan wall raises :class:`AuthError` with the ' +
            'upgrade message in one line.',
        ],
        answers: 'DataFrame or data',
      },
    },
  },
};

/** Names of the enumerations (by the first argument that has them; another with the same values shares one). */
export const LITERAL_NAMES = {
  'rank.mode': 'ScoringMode',
  'dcpi.verdict': 'Verdict',
  'dcpi_scores.sort': 'DcpiSort',
  'deals.deal_type': 'DealType',
  'pipeline.status': 'PipelineStatus',
  'fuel_mix.iso': 'FuelMixIso',
  'tool.name': 'ToolName',
};
export const REFRESH = 'Ask the service even when a fresh answer is cached.';
export const PROGRESS = 'Where progress goes: a callable, stderr (True) or nowhere (False).';
