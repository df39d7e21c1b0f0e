import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import {
  CHARTS,
  FUEL_GROUPS,
  VERDICT_COLORS,
  buildChart,
  fuelGroup,
  queueMap,
  type ChartData,
  type VegaLiteSpec,
} from '../src/charts/index.js';
import {
  DchubClient,
  dcpiLeaderboard,
  dcpiScores,
  fetchBriefsAllPages,
  rankSites,
  refineQueue,
  siteScore,
} from '../src/index.js';

/**
 * Every chart from real answers of the sandbox: valid against the Vega-Lite 5.6.1 JSON schema (the
 * version JupyterLab 4 renders), compiled and rendered by Vega with no warning, as many marks drawn
 * as rows that can be drawn, nothing fetched from a URL. SVGs land in test-results/charts/.
 */
let sb: RunningSandbox;
const PRO = 'charts-pro-key';
const FREE = 'charts-free-key';
const OUT = path.resolve(import.meta.dirname, '../../test-results/charts');
const schema = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../node_modules/vega-lite/build/vega-lite-schema.json'), 'utf8'),
) as object;
const validate = new Ajv({ strict: false, allErrors: false }).compile(schema);

const inputs: Record<string, ChartData & { options?: Record<string, unknown> }> = {};

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'charts', now: '2026-11-21T12:00:00Z', keys: `pro=${PRO},free=${FREE}` });
  const pro = new DchubClient({ baseUrl: sb.url, apiKey: PRO });
  const queue = await refineQueue(pro, { iso: 'PJM,ERCOT,MISO', limit: 1000, max_ttp_months: 60 });
  const ctx = { asOf: queue.snapshot_id?.slice(5), citation: queue._cite };
  inputs.queue_map = { rows: queue.results, ...ctx };
  inputs.queue_mix = inputs.queue_map;
  inputs.queue_time_to_power = { ...inputs.queue_map, options: { maxTtpMonths: 36 } };
  const scores = await dcpiScores(pro, {});
  const rows =
    (scores as unknown as { scores?: Record<string, unknown>[]; data?: Record<string, unknown>[] }).scores ?? [];
  inputs.markets_map = { rows, citation: 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0' };
  inputs.market_quadrant = inputs.markets_map;
  inputs.market_time_to_power = { ...inputs.markets_map, options: { maxTtpMonths: 30 } };
  const board = await dcpiLeaderboard(pro, { limit: 25 });
  inputs.leaderboard = { rows: board.leaderboard, asOf: board.as_of, citation: board.citation };
  const candidates = queue.results
    .filter((r) => r.lat != null)
    .slice(0, 8)
    .map((r) => ({ id: r.queue_id, lat: r.lat, lng: r.lng, capacity_mw: r.capacity_mw, fiber_km: r.fiber_km }));
  const ranked = await rankSites(pro, { candidates, objectives: { capacity_mw: 1, fiber_km: -0.5 } });
  const rankRows = ranked.results.map((r) => ({
    ...r,
    ...Object.fromEntries(Object.entries(r.normalized ?? {}).map(([k, v]) => [`norm_${k}`, v])),
  }));
  inputs.ranking = { rows: rankRows, options: { objectives: { capacity_mw: 1, fiber_km: -0.5 } } };
  const site = await siteScore(pro, { lat: 39.04, lon: -77.49, capacity_mw: 100 });
  inputs.site_score = { rows: [site] };
  mkdirSync(OUT, { recursive: true });
}, 60_000);
afterAll(() => sb?.close());

/** Compiles and renders a spec; the warnings Vega-Lite and Vega gave, the scenegraph's marks by type, the SVG. */
async function render(spec: VegaLiteSpec) {
  const warnings: string[] = [];
  const logger = {
    level: () => logger,
    error: (...a: unknown[]) => warnings.push(`error: ${a.join(' ')}`),
    warn: (...a: unknown[]) => warnings.push(a.join(' ')),
    info: () => logger,
    debug: () => logger,
  };
  const compiled = compile(spec as never, { logger: logger as never });
  const view = new vega.View(vega.parse(compiled.spec), {
    renderer: 'none',
    logger: logger as never,
    logLevel: vega.Warn,
  });
  await view.runAsync();
  const svg = await view.toSVG();
  const marks: Record<string, number> = {};
  const walk = (node: { marktype?: string; items?: unknown[]; role?: string }) => {
    for (const item of node.items ?? []) {
      const it = item as { items?: unknown[]; marktype?: string; role?: string };
      if (node.marktype && node.role === 'mark') marks[node.marktype] = (marks[node.marktype] ?? 0) + 1;
      if (it.items) walk(it);
    }
  };
  walk(view.scenegraph().root as never);
  view.finalize();
  return { warnings, svg, marks };
}

describe('charts', () => {
  for (const name of Object.keys(CHARTS)) {
    it(`${name}: a valid Vega-Lite 5 spec, rendered without a warning, every drawable row drawn, nothing fetched`, async () => {
      const input = inputs[name];
      const spec = await buildChart(name, input, input.options ?? {});
      expect(validate(spec), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      const text = JSON.stringify(spec);
      expect(text).not.toMatch(/"url"\s*:/);
      expect(String(spec.description).length).toBeGreaterThan(40);
      expect((spec.title as { text: string }).text.length).toBeGreaterThan(5);
      const facts = (spec.usermeta as { dchub: { drawn: number; rows: number; omitted: Record<string, number> } })
        .dchub;
      expect(facts.drawn).toBeGreaterThan(0);
      expect(facts.drawn + Object.values(facts.omitted).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(facts.rows + 5);
      const { warnings, svg, marks } = await render(spec);
      expect(warnings).toEqual([]);
      writeFileSync(path.join(OUT, `${name}.svg`), svg);
      if (name === 'queue_map' || name === 'markets_map') expect(marks.symbol).toBe(facts.drawn);
      else expect((marks.rect ?? 0) + (marks.symbol ?? 0)).toBeGreaterThanOrEqual(facts.drawn);
    });
  }

  it('the queue map leaves rows without coordinates out and says how many', async () => {
    const rows = inputs.queue_map.rows;
    const spec = await queueMap({ rows, asOf: '2026-11-20', citation: 'DC Hub, dchub.cloud, CC-BY-4.0' });
    const missing = rows.filter((r) => r.lat == null || r.lng == null).length;
    expect(missing).toBeGreaterThan(0);
    const facts = (spec.usermeta as { dchub: { drawn: number; omitted: { no_coordinates: number } } }).dchub;
    expect(facts.omitted.no_coordinates).toBe(missing);
    expect(JSON.stringify(spec)).toContain(
      `${missing.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} projects have no coordinates (not drawn).`,
    );
    expect(JSON.stringify(spec)).toContain('Data as of 2026-11-20 · DC Hub, dchub.cloud, CC-BY-4.0');
  });

  it('a preview and a stale answer say so in the footer', async () => {
    const spec = await buildChart('queue_mix', {
      ...inputs.queue_mix,
      preview: { shown: 3, total: 4948 },
      stale: { ageMs: 3 * 3600_000, reason: 'service error' },
    });
    const text = JSON.stringify(spec);
    expect(text).toContain('Gated preview: 3 of 4,948 rows shown.');
    expect(text).toContain('served from the cache (3 h old): service error');
  });

  it('free keys get null scores: those markets are left out and counted, verdicts keep their colours', async () => {
    const free = new DchubClient({ baseUrl: sb.url, apiKey: FREE });
    const scores = await dcpiScores(free, {});
    const rows = (scores as unknown as { scores: Record<string, unknown>[] }).scores;
    const spec = await buildChart('leaderboard', { rows });
    const facts = (spec.usermeta as { dchub: { drawn: number; omitted: { no_score: number } } }).dchub;
    expect(facts.omitted.no_score).toBe(rows.filter((r) => r.composite_score == null).length);
    expect(JSON.stringify(spec)).toContain(JSON.stringify([...VERDICT_COLORS]));
    const briefs = await fetchBriefsAllPages(new DchubClient({ baseUrl: sb.url, apiKey: PRO }));
    expect(briefs.briefs.length).toBeGreaterThan(0);
  });

  it('groups the ISOs’ raw fuel labels into one fixed set', () => {
    expect(['Solar', 'SOLAR', 'Photovoltaic'].map(fuelGroup)).toEqual(['Solar', 'Solar', 'Solar']);
    expect(['Solar; Storage', 'SOLAR/BATTERY', 'Photovoltaic + Battery', 'Hybrid'].map(fuelGroup)).toEqual(
      Array(4).fill('Solar + storage'),
    );
    expect(['Natural Gas', 'GAS - PEAKER', 'Methane'].map(fuelGroup)).toEqual(['Gas', 'Gas', 'Gas']);
    expect(['BATTERY', 'Battery Storage', 'Offshore Wind', 'Nuclear', 'Hydro', 'Coal', null].map(fuelGroup)).toEqual([
      'Storage',
      'Storage',
      'Wind',
      'Nuclear',
      'Hydro',
      'Other',
      'Other',
    ]);
    expect(FUEL_GROUPS).toHaveLength(8);
  });
});
