import {
  analyzeParcel,
  DCPI_CITATION,
  DEAL_TYPES,
  dcpiLeaderboard,
  dcpiScore,
  dcpiScores,
  dcpiScoresTable,
  dcpiTable,
  dealsTable,
  energyPrices,
  facilitiesTable,
  fieldTable,
  FUEL_MIX_ISOS,
  fuelMix,
  fuelMixTable,
  getMarket,
  gridRegions,
  gridRegionsTable,
  leaderboardTable,
  listMarkets,
  marketsTable,
  news,
  newsTable,
  parcelTable,
  PIPELINE_STATUSES,
  pipeline,
  pipelineTable,
  pricesTable,
  receipts,
  receiptsTable,
  searchFacilities,
  transactions,
  ValidationError,
  type DchubClient,
  type Table
} from '@dchub/core';
import { VIEW_CHARTS, type ChartChoice } from './chartData';
import type { PythonCall } from './dom';
import { formNumber, pythonCall } from './pycode';

/** A form field of a resource. */
export interface ResourceField {
  name: string;
  label: string;
  kind: 'text' | 'number' | 'select' | 'geojson';
  placeholder?: string;
  options?: readonly string[];
}

/** What loading a resource gives: its table and what to say beside it. */
export interface ResourceResult {
  table: Table;
  /** A short line on where the data comes from (a provenance block, a preview). */
  provenance?: string;
  /**
   * The answer as fetched (or its pages): its `fetchMeta` says what a preview withholds, a stale answer's age, the
   * reader's warnings.
   */
  answers?: unknown[];
}

export interface ResourceContext {
  client: DchubClient;
  signal: AbortSignal;
  /** Reads a workspace file through the Contents API. */
  readFile: (path: string) => Promise<string>;
}

/** One resource of the spec reachable from the panel: a small form, a loader, the notebook call. */
export interface ResourceSpec {
  id: string;
  label: string;
  description: string;
  fields: ResourceField[];
  load(ctx: ResourceContext, args: Record<string, string>): Promise<ResourceResult>;
  python(args: Record<string, string>): PythonCall;
  /** The charts its view offers beside the table. */
  charts?: readonly ChartChoice[];
}

const blank = (s: string | undefined): string | undefined => (s && s.trim() ? s.trim() : undefined);

/**
 * A GeoJSON geometry from pasted text or a workspace file; Features and FeatureCollections give their (first) geometry.
 */
export function geometryOf(text: string): unknown {
  let g: unknown;
  try {
    g = JSON.parse(text);
  } catch {
    throw new ValidationError('geometry', 'is not GeoJSON (the text does not parse as JSON)');
  }
  const o = g as { type?: string; features?: Array<{ geometry?: unknown }>; geometry?: unknown };
  if (o?.type === 'FeatureCollection') return o.features?.[0]?.geometry;
  if (o?.type === 'Feature') return o.geometry;
  return g;
}

async function parcelGeometry(ctx: ResourceContext, args: Record<string, string>): Promise<unknown> {
  const source = blank(args.geojson);
  if (!source)
    throw new ValidationError('geometry', 'paste GeoJSON or give the path of a .geojson file in the workspace');
  return geometryOf(source.startsWith('{') ? source : await ctx.readFile(source));
}

const VERDICT_FIELD: ResourceField = {
  name: 'verdict',
  label: 'Verdict',
  kind: 'select',
  options: ['', 'BUILD', 'CAUTION', 'AVOID']
};

/** The resources beyond queue, briefs, site score, ranking and tools (spec §2, §4). */
export const RESOURCES: readonly ResourceSpec[] = [
  {
    id: 'grid-regions',
    label: 'Grid regions',
    description: 'Interconnection-queue depth and large-load demand by grid region, with provenance (spec §2.8).',
    fields: [],
    async load({ client, signal }) {
      const g = await gridRegions(client, { signal });
      const p = g.provenance;
      return {
        table: gridRegionsTable(g),
        answers: [g],
        provenance: `${p.source}. Method: ${p.method} (${p.basis_class}, revision ${p.provenance_revision}). License ${p.license}; cite as "${p.cite_as}".`
      };
    },
    python: () => ({ call: pythonCall('grid_regions') })
  },
  {
    id: 'dcpi-leaderboard',
    label: 'DCPI leaderboard',
    description: 'Markets ranked by the DC Hub Power Index.',
    fields: [VERDICT_FIELD, { name: 'limit', label: 'Rows', kind: 'number', placeholder: '25' }],
    async load({ client, signal }, a) {
      const l = await dcpiLeaderboard(client, { verdict: blank(a.verdict), limit: blank(a.limit) }, { signal });
      return { table: leaderboardTable(l), answers: [l] };
    },
    python: (a) => ({ call: pythonCall('dcpi', { verdict: blank(a.verdict), limit: formNumber(a.limit ?? '') }) }),
    charts: VIEW_CHARTS.dcpi
  },
  {
    id: 'dcpi-scores',
    label: 'DCPI scores',
    description:
      "Every market's power-readiness scores and verdict, with its coordinates (numbers withheld below a paid plan).",
    fields: [VERDICT_FIELD, { name: 'iso', label: 'ISO', kind: 'text', placeholder: 'any' }],
    async load({ client, signal }, a) {
      const l = await dcpiScores(client, { verdict: blank(a.verdict), iso: blank(a.iso) }, { signal });
      return { table: dcpiScoresTable(l), answers: [l] };
    },
    python: (a) => ({ call: pythonCall('dcpi_scores', { verdict: blank(a.verdict), iso: blank(a.iso) }) }),
    charts: VIEW_CHARTS.dcpiScores
  },
  {
    id: 'dcpi-market',
    label: 'DCPI market score',
    description: "One market's power-readiness scores, verdict and inputs.",
    fields: [{ name: 'market', label: 'Market slug', kind: 'text', placeholder: 'e.g. dallas' }],
    async load({ client, signal }, a) {
      const s = await dcpiScore(client, a.market ?? '', { signal });
      return { table: dcpiTable(s), answers: [s] };
    },
    python: (a) => ({ call: pythonCall('dcpi', {}, [a.market ?? '']), variable: 'scores' })
  },
  {
    id: 'receipts',
    label: 'Receipts',
    description: 'Published model-evaluation runs and their API calls (spec §2.9).',
    fields: [],
    async load({ client, signal }) {
      const r = await receipts(client, { signal });
      return { table: receiptsTable(r), answers: [r] };
    },
    python: () => ({ call: pythonCall('receipts') })
  },
  {
    id: 'parcel',
    label: 'Parcel analysis',
    description:
      'Acreage, representative point and site hand-off of a GeoJSON polygon: a workspace file or pasted text.',
    fields: [
      {
        name: 'geojson',
        label: 'GeoJSON (file path or text)',
        kind: 'geojson',
        placeholder: 'parcels/site.geojson, or paste {"type": "Polygon", ...}'
      },
      { name: 'capacity_mw', label: 'Capacity (MW)', kind: 'number', placeholder: 'optional' }
    ],
    async load(ctx, a) {
      const geometry = await parcelGeometry(ctx, a);
      const p = await analyzeParcel(ctx.client, geometry, a.capacity_mw?.trim() ? Number(a.capacity_mw) : undefined, {
        signal: ctx.signal
      });
      return { table: parcelTable(p), answers: [p] };
    },
    python: (a) => {
      const source = blank(a.geojson) ?? '';
      const geometry = source.startsWith('{') ? geometryOf(source) : source;
      return {
        call: pythonCall('parcel', { capacity_mw: formNumber(a.capacity_mw ?? '') }, [geometry]),
        variable: 'parcel'
      };
    }
  },
  {
    id: 'markets',
    label: 'Markets',
    description: 'Scored markets of your tier.',
    fields: [],
    async load({ client, signal }) {
      const m = await listMarkets(client, { signal });
      return { table: marketsTable(m), answers: [m] };
    },
    python: () => ({ call: pythonCall('markets') })
  },
  {
    id: 'market',
    label: 'Market detail',
    description: 'One market: totals, top providers, recent facilities.',
    fields: [{ name: 'name', label: 'Market', kind: 'text', placeholder: 'e.g. dallas' }],
    async load({ client, signal }, a) {
      const m = await getMarket(client, a.name ?? '', { signal });
      return { table: fieldTable(m), answers: [m] };
    },
    python: (a) => ({ call: pythonCall('market', {}, [a.name ?? '']), variable: 'market' })
  },
  {
    id: 'facilities',
    label: 'Facilities',
    description: 'Facility search by text, country and market (keyless callers see 5).',
    fields: [
      { name: 'query', label: 'Search', kind: 'text', placeholder: 'e.g. equinix' },
      { name: 'country', label: 'Country', kind: 'text', placeholder: 'US' },
      { name: 'limit', label: 'Rows', kind: 'number', placeholder: '25' }
    ],
    async load({ client, signal }, a) {
      const f = await searchFacilities(
        client,
        { q: blank(a.query), country: blank(a.country), limit: blank(a.limit) },
        { signal }
      );
      return { table: facilitiesTable(f), answers: [f] };
    },
    python: (a) => ({
      call: pythonCall('facilities', {
        query: blank(a.query),
        country: blank(a.country),
        limit: formNumber(a.limit ?? '')
      })
    })
  },
  {
    id: 'news',
    label: 'News',
    description: 'Industry news, newest first (refreshed every 5 minutes).',
    fields: [
      { name: 'query', label: 'Search', kind: 'text', placeholder: 'optional' },
      { name: 'limit', label: 'Rows', kind: 'number', placeholder: '10' }
    ],
    async load({ client, signal }, a) {
      const n = await news(client, { query: blank(a.query), limit: blank(a.limit) }, { signal });
      return { table: newsTable(n), answers: [n] };
    },
    python: (a) => ({ call: pythonCall('news', { limit: formNumber(a.limit ?? ''), query: blank(a.query) }) })
  },
  {
    id: 'deals',
    label: 'Deals',
    description: 'M&A and investment deals, newest first; values in millions USD.',
    fields: [
      { name: 'deal_type', label: 'Type', kind: 'select', options: ['', ...DEAL_TYPES] },
      { name: 'year', label: 'Year', kind: 'number', placeholder: 'any' },
      { name: 'limit', label: 'Rows', kind: 'number', placeholder: '20' }
    ],
    async load({ client, signal }, a) {
      const t = await transactions(
        client,
        { deal_type: blank(a.deal_type), year: blank(a.year), limit: blank(a.limit) },
        { signal }
      );
      return { table: dealsTable(t), answers: [t] };
    },
    python: (a) => ({
      call: pythonCall('deals', {
        limit: formNumber(a.limit ?? ''),
        deal_type: blank(a.deal_type),
        year: formNumber(a.year ?? '')
      })
    })
  },
  {
    id: 'pipeline',
    label: 'Pipeline',
    description: 'Projects under construction or announced; capacity in MW, investment in millions USD.',
    fields: [
      { name: 'status', label: 'Status', kind: 'select', options: ['', ...PIPELINE_STATUSES] },
      { name: 'market', label: 'Market', kind: 'text', placeholder: 'any' },
      { name: 'limit', label: 'Rows', kind: 'number', placeholder: '200' }
    ],
    async load({ client, signal }, a) {
      const p = await pipeline(
        client,
        { status: blank(a.status), market: blank(a.market), limit: blank(a.limit) },
        { signal }
      );
      return { table: pipelineTable(p), answers: [p] };
    },
    python: (a) => ({
      call: pythonCall('pipeline', {
        status: blank(a.status),
        market: blank(a.market),
        limit: formNumber(a.limit ?? '')
      })
    })
  },
  {
    id: 'fuel-mix',
    label: 'Fuel mix',
    description: 'Generation by fuel of a US grid operator (refreshed every 5 minutes).',
    fields: [{ name: 'iso', label: 'Grid operator', kind: 'select', options: FUEL_MIX_ISOS }],
    async load({ client, signal }, a) {
      const f = await fuelMix(client, blank(a.iso), { signal });
      return { table: fuelMixTable(f), answers: [f] };
    },
    python: (a) => ({ call: pythonCall('fuel_mix', {}, [blank(a.iso) ?? 'ERCOT']) })
  },
  {
    id: 'prices',
    label: 'Electricity prices',
    description: 'Retail prices of a US state, cents per kWh, with the 12-month trend.',
    fields: [{ name: 'state', label: 'State', kind: 'text', placeholder: 'e.g. TX' }],
    async load({ client, signal }, a) {
      const e = await energyPrices(client, a.state ?? '', { signal });
      return { table: pricesTable(e), answers: [e] };
    },
    python: (a) => ({ call: pythonCall('prices', {}, [a.state ?? '']), variable: 'prices' })
  }
];

/** The citation for a resource table that carries none (DCPI answers cite the index). */
export function citationFor(id: string, table: Table): string | undefined {
  return table.citation ?? (id.startsWith('dcpi') ? DCPI_CITATION : undefined);
}
