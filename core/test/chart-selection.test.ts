import * as vega from 'vega';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import {
  POINT_SELECTION,
  STORE_TUPLES_MAX,
  marketsMap,
  queueMap,
  selectedRows,
  selectionStore,
  type VegaLiteSpec,
} from '../src/charts/index.js';

/**
 * The maps' points are selectable and a host can read and set the selection: each point carries the
 * index of its row, the store tuples core gives a host are the ones a click writes (so a shift-click
 * toggles them), and a selection set that way highlights exactly those points.
 */
const queueRows = [
  { queue_id: 'Q0', lat: 39.1, lng: -77.5, capacity_mw: 100, fuel_type: 'Natural Gas' },
  { queue_id: 'Q1', lat: null, lng: null, capacity_mw: 50, fuel_type: 'Solar' },
  { queue_id: 'Q2', lat: 30.2, lng: -97.7, capacity_mw: 300, fuel_type: 'Battery' },
  { queue_id: 'Q3', lat: 18.2, lng: -66.5, capacity_mw: 20, fuel_type: 'Wind' }, // Puerto Rico: off the map
  { queue_id: 'Q4', lat: 41.9, lng: -87.6, capacity_mw: 80, fuel_type: 'Wind' },
];
const marketRows = [
  { market_slug: 'nova', market_name: 'Northern Virginia', verdict: 'BUILD', latitude: 38.9, longitude: -77.4 },
  { market_slug: 'nowhere', market_name: 'Nowhere', verdict: 'AVOID' },
  { market_slug: 'dallas', market_name: 'Dallas', verdict: 'CAUTION', latitude: 32.8, longitude: -96.8 },
];

async function view(spec: VegaLiteSpec) {
  const warnings: string[] = [];
  const logger = {
    level: () => logger,
    error: (...a: unknown[]) => warnings.push(a.join(' ')),
    warn: (...a: unknown[]) => warnings.push(a.join(' ')),
    info: () => logger,
    debug: () => logger,
  };
  const compiled = compile(spec as never, { logger: logger as never }).spec;
  const v = new vega.View(vega.parse(compiled), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  await v.runAsync();
  return { v, compiled, warnings };
}

/** The drawn points of the selectable layer: their row and how they are drawn. */
function points(
  v: vega.View,
): Array<{ row: number; opacity: number; stroke: unknown; strokeWidth: number; size: number }> {
  const out: Array<{ row: number; opacity: number; stroke: unknown; strokeWidth: number; size: number }> = [];
  const walk = (node: { items?: unknown[]; marktype?: string; name?: string }) => {
    for (const item of node.items ?? []) {
      const it = item as {
        items?: unknown[];
        datum?: { row: number };
        opacity: number;
        stroke: unknown;
        strokeWidth: number;
        size: number;
      };
      if (node.marktype === 'symbol' && node.name === `${POINT_SELECTION.unit}_marks` && it.datum) {
        out.push({
          row: it.datum.row,
          opacity: it.opacity,
          stroke: it.stroke,
          strokeWidth: it.strokeWidth,
          size: it.size,
        });
      }
      if (it.items) walk(it);
    }
  };
  walk(v.scenegraph().root as never);
  return out.sort((a, b) => a.row - b.row);
}

/** The signals of the unit the selection lives in (nested in the chart's groups). */
function unitSignals(compiled: vega.Spec): Array<{ name: string; value?: unknown; on?: Array<{ update: string }> }> {
  const found: Array<{ name: string; value?: unknown; on?: Array<{ update: string }> }> = [];
  const walk = (node: { signals?: unknown[]; marks?: unknown[] }) => {
    for (const s of node.signals ?? []) found.push(s as never);
    for (const m of node.marks ?? []) walk(m as never);
  };
  walk(compiled);
  return found;
}

describe('selectable map points', () => {
  it('each queue point carries the index of its row; rows without coordinates or off the map draw nothing', async () => {
    const { v, warnings } = await view(await queueMap({ rows: queueRows }));
    expect(warnings).toEqual([]);
    expect(points(v).map((p) => p.row)).toEqual([0, 2, 4]);
    v.finalize();
  });

  it('the store tuples a host writes are the ones a click writes: the same unit and fields (a shift-click toggles them)', async () => {
    const { compiled, v } = await view(await queueMap({ rows: queueRows }));
    const signals = unitSignals(compiled);
    const fields = signals.find((s) => s.name === `${POINT_SELECTION.param}_tuple_fields`)?.value;
    const click = signals.find((s) => s.name === `${POINT_SELECTION.param}_tuple`)?.on?.[0]?.update ?? '';
    const [tuple] = selectionStore([2]);
    expect(fields).toEqual(tuple.fields);
    expect(click).toContain(`unit: ${JSON.stringify(tuple.unit)}`);
    expect(click).toContain(`[${JSON.stringify(POINT_SELECTION.field)}]`);
    expect((compiled.data ?? []).some((d) => d.name === POINT_SELECTION.store)).toBe(true);
    v.finalize();
  });

  it('a selection set by the host highlights exactly its points and the others fade; clearing restores them', async () => {
    const { v } = await view(await queueMap({ rows: queueRows }));
    const heard: number[][] = [];
    v.addSignalListener(POINT_SELECTION.param, (_name, value) => heard.push(selectedRows(value)));
    await v.data(POINT_SELECTION.store, selectionStore([4, 0, 4])).runAsync();
    expect(selectedRows(v.signal(POINT_SELECTION.param))).toEqual([4, 0]);
    expect(heard.at(-1)).toEqual([4, 0]);
    const drawn = points(v);
    expect(drawn.filter((p) => p.strokeWidth === 2 && p.stroke === '#000000').map((p) => p.row)).toEqual([0, 4]);
    expect(drawn.find((p) => p.row === 2)).toMatchObject({ opacity: 0.15, strokeWidth: 0.5 });
    expect(drawn.find((p) => p.row === 0)?.opacity).toBe(0.7);

    await v.data(POINT_SELECTION.store, []).runAsync();
    expect(selectedRows(v.signal(POINT_SELECTION.param))).toEqual([]);
    expect(points(v).every((p) => p.opacity === 0.7 && p.strokeWidth === 0.5)).toBe(true);
    v.finalize();
  });

  it('a project without a capacity is drawn too, at the smallest size, and the footer says so', async () => {
    const spec = await queueMap({ rows: queueRows.map((r, i) => (i === 4 ? { ...r, capacity_mw: null } : r)) });
    const { v, warnings } = await view(spec);
    expect(warnings).toEqual([]);
    const drawnPoints = points(v);
    expect(drawnPoints.map((p) => p.row)).toEqual([0, 2, 4]);
    expect(drawnPoints.find((p) => p.row === 4)?.size).toBe(8);
    expect((spec.usermeta as { dchub: { drawn: number } }).dchub.drawn).toBe(3);
    expect(JSON.stringify(spec)).toContain('1 of 5 projects have no capacity (drawn smallest).');
    v.finalize();
  });

  it('markets map points carry their row too, and keep their own outline when not selected', async () => {
    const { v, warnings } = await view(await marketsMap({ rows: marketRows }));
    expect(warnings).toEqual([]);
    expect(points(v).map((p) => p.row)).toEqual([0, 2]);
    await v.data(POINT_SELECTION.store, selectionStore([2])).runAsync();
    expect(points(v).map((p) => [p.row, p.stroke, p.opacity])).toEqual([
      [0, '#333333', 0.15],
      [2, '#000000', 0.85],
    ]);
    v.finalize();
  });

  it('a large selection is one tuple enumerating its rows, and selects the same points', async () => {
    const rows = Array.from({ length: STORE_TUPLES_MAX * 2 }, (_, i) => ({
      queue_id: `Q${i}`,
      lat: 30 + (i % 15),
      lng: -100 + (i % 30),
      capacity_mw: 10,
    }));
    const { v } = await view(await queueMap({ rows }));
    const picked = rows.map((_, i) => i).filter((i) => i % 3 !== 0);
    const store = selectionStore(picked);
    expect(store).toHaveLength(1);
    await v.data(POINT_SELECTION.store, store).runAsync();
    expect(selectedRows(v.signal(POINT_SELECTION.param))).toEqual(picked);
    expect(
      points(v)
        .filter((p) => p.strokeWidth === 2)
        .map((p) => p.row),
    ).toEqual(picked);
    expect(selectionStore(picked.slice(0, STORE_TUPLES_MAX))).toHaveLength(STORE_TUPLES_MAX);
    v.finalize();
  });

  it('selectedRows reads only whole non-negative row numbers, once each', () => {
    expect(selectedRows(undefined)).toEqual([]);
    expect(selectedRows({})).toEqual([]);
    expect(selectedRows({ row: [3, 1, 3, -1, 2.5, '4', null] })).toEqual([3, 1]);
  });
});
