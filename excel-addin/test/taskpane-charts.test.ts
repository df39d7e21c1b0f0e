// Native charts from the pane against the Office.js mock (support/excel-mock-visuals.ts), with
// real answers of an in-process sandbox spilled as the DCHUB functions spill them.
import { DchubClient, queueTable, rankSites, rankedTable, refineQueue, type QueueResultT } from '@dchub/core';
import {
  FUEL_GROUPS,
  FUEL_COLORS,
  SCORE_COLOR,
  SUMMARIES,
  VERDICT_COLORS,
  leaderboardSummary,
  queueMixSummary,
} from '@dchub/core/charts';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { spill } from '../src/functions/spill';
import { insertBriefs, refreshBriefs } from '../src/taskpane/actions';
import {
  CHARTS_SETTINGS_KEY,
  CHART_NAME,
  followSpilledSources,
  insertChart,
  updateCharts,
} from '../src/taskpane/charts';
import { HEADER_ROW } from '../src/taskpane/excel';
import { FakeWorkbook } from './support/excel-mock';
import { ruleData } from './support/excel-mock-visuals';

let sb: RunningSandbox;
let pjm: QueueResultT;
let wide: QueueResultT;
const KEY = 'charts-ent-key';
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'xl-charts',
    now: '2026-11-21T12:00:00Z',
    keys: `enterprise=${KEY}`,
    controls: true,
  });
  const c = new DchubClient({ baseUrl: sb.url, apiKey: KEY, retries: 0 });
  pjm = await refineQueue(c, { iso: 'PJM,ERCOT', limit: 60 });
  wide = await refineQueue(c, { iso: 'PJM,ERCOT,MISO,CAISO', limit: 120 });
});
afterAll(() => sb?.close());

let api = 17;
beforeEach(() => {
  api = 17;
  vi.stubGlobal('Office', {
    context: {
      requirements: {
        isSetSupported: (set: string, v: string) => set === 'ExcelApi' && Number(v.split('.')[1]) <= api,
      },
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

const FORMULA = '=DCHUB.QUEUE("PJM,ERCOT",,,,,,,,60,2)';
/** A QUEUE spill as the function writes it (headers 2: a source row, the header), with a closing row. */
function spillQueue(wb: FakeWorkbook, r: QueueResultT, at = { r: 2, c: 1 }) {
  const matrix = spill(queueTable(r), 2, ['served from the cache (2 h old): service error']);
  wb.spill('Sheet1', at.r, at.c, matrix, FORMULA);
  return matrix;
}
const chartOn = (wb: FakeWorkbook, sheet: string) => wb.charts.find((c) => c.sheet.name === sheet)!;

describe('Insert chart', () => {
  it('queue mix from a spilled QUEUE table: stacked columns bound to core’s table, series by columns, titles, fuel colours', async () => {
    const wb = new FakeWorkbook();
    const matrix = spillQueue(wb, pjm);
    wb.selection = { sheet: wb.sheet('Sheet1')!, r: 10, c: 4, h: 1, w: 1 }; // a cell inside the spill, not its anchor
    const r = await insertChart(wb.context);
    expect(r).toMatchObject({
      sheet: 'DC Hub queue mix',
      kind: 'queue_mix',
      type: 'ColumnStacked',
      from: 'Sheet1!B3#',
    });
    const summary = queueMixSummary({ rows: pjm.results });
    const sheet = wb.sheet(r.sheet)!;
    expect(sheet.block(0, 0, summary.rows.length + 1, summary.columns.length)).toEqual([
      summary.columns,
      ...summary.rows,
    ]);
    expect(summary.rows.map((x) => x[0])).toEqual(expect.arrayContaining(['PJM', 'ERCOT']));
    const chart = chartOn(wb, r.sheet);
    expect(chart).toMatchObject({
      name: CHART_NAME,
      type: 'ColumnStacked',
      seriesBy: 'Columns',
      source: { r: 0, c: 0, h: summary.rows.length + 1, w: summary.charted },
      // The call's limit (60) cut the survivors: the title says so, in the words of the Vega-Lite subtitle.
      title: `Queued capacity by ISO and fuel\n60 of ${pjm.count_total_matching.toLocaleString('en-US')} matching projects (the call's limit)`,
      categoryTitle: 'ISO',
      valueTitle: 'Queued capacity (MW)',
    });
    expect(Object.values(chart.colors)).toEqual(
      summary.columns.slice(1).map((g) => FUEL_COLORS[FUEL_GROUPS.indexOf(g as never)]),
    );
    // Under the chart: what part of the whole it shows and how to draw the whole (core's subtitle), the citation and
    // the as-of of the spill's source row, its closing rows, where it came from.
    const col = summary.columns.length + 1;
    expect(chart.position).toEqual([`R1C${col + 1}`, `R20C${col + 9}`]);
    const counts = SUMMARIES.queue_mix({ rows: pjm.results, matching: pjm.count_total_matching }).subtitle!;
    expect(counts[1]).toMatch(/^Queued MW of these 60 only\./);
    const all = Array.from({ length: 3 + counts.length }, (_, i) => sheet.value(20 + i, col));
    expect(all.slice(0, counts.length)).toEqual(counts);
    const lines = all.slice(counts.length);
    expect(lines.filter((l) => l === counts[0])).toEqual([]); // the closing row that said it is not said twice
    expect(lines[0]).toBe(`${matrix[0][0]}; ${matrix[0][1]}`);
    expect(lines[0]).toMatch(/^Source: .+; as of .+/);
    expect(lines).toContain('served from the cache (2 h old): service error');
    expect(lines.at(-1)).toMatch(/^Drawn from Sheet1!B3#/);
    expect(JSON.parse(String(wb.settings.get(CHARTS_SETTINGS_KEY)))).toEqual([
      {
        sheet: r.sheet,
        kind: 'queue_mix',
        source: { how: 'spill', sheet: 'Sheet1', cell: 'B3' },
        rows: summary.rows.length,
        cols: summary.columns.length,
        lines: 3 + counts.length,
      },
    ]);
    expect(wb.active.name).toBe(r.sheet);
  });

  it('follows a recalculated spill: the table is rewritten, the chart re-bound (series by columns), nothing written when nothing changed', async () => {
    const wb = new FakeWorkbook();
    spillQueue(wb, pjm);
    wb.selection = { sheet: wb.sheet('Sheet1')!, r: 2, c: 1, h: 1, w: 1 };
    const r = await insertChart(wb.context);
    const updates: unknown[] = [];
    const stop = await followSpilledSources(wb.excel.run, (u) => updates.push(u), 0);
    // The formula now answers a wider question: more ISOs, more rows.
    spillQueue(wb, wide);
    await wb.calculated();
    await vi.waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toEqual([{ sheet: r.sheet, updated: true }]);
    const summary = queueMixSummary({ rows: wide.results });
    expect(summary.rows.length).toBeGreaterThan(2);
    const chart = chartOn(wb, r.sheet);
    expect(chart).toMatchObject({
      seriesBy: 'Columns',
      rebinds: 1,
      source: { r: 0, c: 0, h: summary.rows.length + 1, w: summary.charted },
    });
    expect(wb.sheet(r.sheet)!.block(0, 0, summary.rows.length + 1, summary.columns.length)).toEqual([
      summary.columns,
      ...summary.rows,
    ]);
    // Calculated again with the same numbers: no write, so the event cannot loop.
    const writes = wb.writes.length;
    await wb.calculated();
    await vi.waitFor(() => expect(updates).toHaveLength(2));
    expect(updates[1]).toEqual([{ sheet: r.sheet, updated: false }]);
    expect(wb.writes.length).toBe(writes);
    // Nor a settings write: the workbook is left untouched when nothing changed.
    let settingWrites = 0;
    const set = wb.settings.set.bind(wb.settings);
    wb.settings.set = (k, v) => (settingWrites++, set(k, v));
    await wb.calculated();
    await vi.waitFor(() => expect(updates).toHaveLength(3));
    expect(settingWrites).toBe(0);
    expect(chart.rebinds).toBe(1);
    stop();
  });

  it('leaderboard from a brief sheet: clustered bars of the composite score, 0–100, best on top, verdict fills beside; a brief refresh updates it', async () => {
    const c = new DchubClient({ baseUrl: sb.url, apiKey: KEY, retries: 0 });
    const wb = new FakeWorkbook();
    const ins = await insertBriefs(c, wb.excel.run);
    wb.selection = { sheet: wb.sheet(ins.sheet)!, r: HEADER_ROW + 3, c: 2, h: 1, w: 1 };
    const r = await insertChart(wb.context, { top: 10 });
    expect(r).toMatchObject({
      kind: 'leaderboard',
      type: 'BarClustered',
      rows: 10,
      from: `${ins.sheet}!C7 (table ${ins.table})`,
    });
    const chart = chartOn(wb, r.sheet);
    expect(chart).toMatchObject({
      type: 'BarClustered',
      seriesBy: 'Columns',
      source: { r: 0, c: 0, h: 11, w: 2 },
      title: 'DCPI leaderboard: top 10 markets',
      categoryTitle: 'Market',
      valueTitle: 'Composite score (0–100)',
      valueMin: 0,
      valueMax: 100,
      reversed: true,
      colors: { 0: SCORE_COLOR },
    });
    const sheet = wb.sheet(r.sheet)!;
    expect(sheet.row(0, 0, 3)).toEqual(['Market', 'Composite score', 'Verdict']);
    const scores = Array.from({ length: 10 }, (_, i) => sheet.value(1 + i, 1) as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(wb.rules.filter((x) => x.sheet === sheet).map(ruleData)).toEqual(
      VERDICT_COLORS.map((fill) =>
        expect.objectContaining({ type: 'ContainsText', address: `${r.sheet}!R2C3:R11C3`, fill }),
      ),
    );
    expect(sheet.value(20, 4)).toMatch(/^Source: DC Hub Power Index \(DCPI\).*; as of \d{4}-/);

    // A day later the briefs were recomputed: the brief refresh brings the chart along.
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 86_400 }),
    });
    const refreshed = await refreshBriefs(c, wb.excel.run);
    expect(refreshed.changed.length).toBeGreaterThan(0);
    expect(refreshed.charts).toBe(1);
    expect(chart.rebinds).toBe(1);
    const brief = wb.sheet(ins.sheet)!;
    const rows = Array.from({ length: wb.tables[0].rows - 1 }, (_, i) =>
      Object.fromEntries(brief.row(HEADER_ROW, 0, 18).map((h, j) => [h, brief.value(HEADER_ROW + 1 + i, j)])),
    );
    expect(sheet.block(1, 0, 10, 3)).toEqual(leaderboardSummary({ rows }, { top: 10 }).rows);
  });

  it('ranking from a RANK spill: contributions stacked when the objectives are in the formula, the objective score otherwise', async () => {
    const c = new DchubClient({ baseUrl: sb.url, apiKey: KEY, retries: 0 });
    const candidates = pjm.results
      .filter((x) => x.lat != null)
      .slice(0, 6)
      .map((x) => ({ id: x.queue_id, lat: x.lat, lng: x.lng, capacity_mw: x.capacity_mw, fiber_km: x.fiber_km }));
    const objectives = { capacity_mw: 1, fiber_km: -0.5 };
    const ranked = await rankSites(c, { candidates, objectives, top_k: 5 });
    const wb = new FakeWorkbook();
    wb.spill(
      'Sheet1',
      0,
      0,
      spill(rankedTable(ranked, Object.keys(objectives)), 1),
      '=DCHUB.RANK(H1:L7,"capacity_mw:1,fiber_km:-0.5",,,5)',
    );
    wb.selection = { sheet: wb.sheet('Sheet1')!, r: 1, c: 1, h: 1, w: 1 };
    const stacked = await insertChart(wb.context);
    expect(stacked).toMatchObject({ kind: 'ranking', type: 'BarStacked' });
    const s = wb.sheet(stacked.sheet)!;
    expect(s.row(0, 0, 3)).toEqual(['Candidate', 'capacity_mw', 'fiber_km']);
    for (let i = 0; i < ranked.results.length; i++) {
      expect((s.value(1 + i, 1) as number) + (s.value(1 + i, 2) as number)).toBeCloseTo(
        ranked.results[i].objective_score!,
        0,
      );
    }
    expect(chartOn(wb, stacked.sheet)).toMatchObject({
      seriesBy: 'Columns',
      title: 'Why the ranking came out this way',
      valueTitle: 'Objective score (0–100)',
    });
    // The objectives in a range: their weights are not in the formula, so the bars are the score itself.
    wb.sheet('Sheet1')!.patch(0, 0, { f: '=DCHUB.RANK(H1:L7,N1:O2)' });
    const plain = await insertChart(wb.context);
    expect(plain.type).toBe('BarClustered');
    expect(wb.sheet(plain.sheet)!.block(0, 0, 2, 2)).toEqual([
      ['Candidate', 'Objective score'],
      [`#1 ${String(ranked.results[0].id)}`, ranked.results[0].objective_score],
    ]);
  });

  it('without ExcelApi 1.12 finds the table around the selection; refuses a block that is not a DC Hub table', async () => {
    api = 11;
    const wb = new FakeWorkbook();
    spillQueue(wb, pjm);
    wb.selection = { sheet: wb.sheet('Sheet1')!, r: 5, c: 3, h: 1, w: 1 };
    const r = await insertChart(wb.context);
    expect(r.from).toBe('Sheet1!D6');
    expect(JSON.parse(String(wb.settings.get(CHARTS_SETTINGS_KEY)))[0].source).toEqual({
      how: 'region',
      sheet: 'Sheet1',
      cell: 'D6',
    });
    expect(chartOn(wb, r.sheet).seriesBy).toBe('Columns');
    wb.sheet('Sheet1')!.setValue(100, 30, 'my numbers');
    wb.sheet('Sheet1')!.setValue(101, 30, 12);
    wb.selection = { sheet: wb.sheet('Sheet1')!, r: 101, c: 30, h: 1, w: 1 };
    await expect(insertChart(wb.context)).rejects.toThrow(/not in a DC Hub table with a header row/);
    // A chart whose sheet the user deleted is forgotten at the next update.
    wb.sheets.splice(wb.sheets.indexOf(wb.sheet(r.sheet)!), 1);
    expect(await updateCharts(wb.context)).toEqual([]);
    expect(JSON.parse(String(wb.settings.get(CHARTS_SETTINGS_KEY)))).toEqual([]);
  });
});
