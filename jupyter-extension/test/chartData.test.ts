// What a view hands core's charts (pure: no DOM): the footer's context from the answer's fetchMeta,
// the shown rows as records, and the chart line of the notebook cell.
import { DchubClient, fetchMeta, previewInfo, refineQueue, type FetchMeta, type Table } from '@dchub/core';
import { buildChart, footerLines, type ChartFacts } from '@dchub/core/charts';
import { startSandbox } from '@dchub/sandbox/server';
import { describe, expect, it } from 'vitest';
import { chartContext, sameRows, tableRecords, VIEW_CHARTS } from '../src/chartData';
import { chartCall, pythonCell } from '../src/pycode';

const meta = (m: Partial<FetchMeta>): FetchMeta => ({
  fromCache: false,
  stale: false,
  preview: false,
  fetchedAt: 0,
  ageMs: 0,
  warnings: [],
  ...m
});

describe('chart context from fetchMeta', () => {
  it('a fresh full answer: only its citation and time', () => {
    expect(chartContext([meta({}), undefined], { citation: 'DC Hub, CC-BY-4.0', asOf: '2026-11-21' })).toEqual({
      asOf: '2026-11-21',
      citation: 'DC Hub, CC-BY-4.0',
      matching: null,
      preview: null,
      stale: null
    });
  });

  it("a gated preview's rows shown of how many, and a preview the reader could not count", () => {
    const info = previewInfo({ shown: 3, total: 4948, lockedFields: ['capacity_mw'] });
    const ctx = chartContext([meta({ preview: true, previewInfo: info })]);
    expect(ctx.preview).toEqual({ shown: 3, total: 4948 });
    expect(footerLines(ctx, [])).toContain('Gated preview: 3 of 4,948 rows shown.');
    expect(chartContext([meta({ preview: true })]).preview).toEqual({ shown: null, total: null });
  });

  it("a stale answer's age and reason: the oldest part's, as the banner says", () => {
    const ctx = chartContext([
      meta({ stale: true, ageMs: 60_000, reason: 'offline' }),
      meta({ stale: true, ageMs: 3 * 3_600_000, reason: 'service error' })
    ]);
    expect(ctx.stale).toEqual({ ageMs: 10_800_000, reason: 'service error' });
    expect(footerLines(ctx, [])).toContain('served from the cache (3 h old): service error');
  });

  it("a keyless queue answer's map says it is a gated preview, of how many rows", async () => {
    const sb = await startSandbox({ port: 0, seed: 'chart-context', now: '2026-11-21T12:00:00Z' });
    try {
      const answer = await refineQueue(new DchubClient({ baseUrl: sb.url }), { iso: 'PJM' });
      const total = fetchMeta(answer)?.previewInfo?.total;
      expect(total).toBeGreaterThan(answer.results.length);
      const spec = await buildChart('queue_map', {
        rows: answer.results,
        ...chartContext([fetchMeta(answer)], { citation: answer._cite })
      });
      const footer = (
        (spec.vconcat as Array<{ data?: { values?: Array<{ text?: string }> } }>)[1].data?.values ?? []
      ).map((v) => v.text);
      expect(footer).toContain(
        `Gated preview: ${answer.results.length} of ${total!.toLocaleString('en-US')} rows shown.`
      );
      expect(footer.at(-1)).toContain(answer._cite!);
    } finally {
      await sb.close();
    }
  });
});

describe("the panel's charts say what part of the whole they show", () => {
  it('a queue the call\'s limit cut: "50 of N matching projects (the call\'s limit)", and how to draw the whole', async () => {
    const sb = await startSandbox({
      port: 0,
      seed: 'chart-counts',
      now: '2026-11-21T12:00:00Z',
      keys: 'pro=panel-pro'
    });
    try {
      const c = new DchubClient({ baseUrl: sb.url, apiKey: 'panel-pro' });
      const answer = await refineQueue(c, { iso: 'PJM,ERCOT', limit: 50 });
      expect(answer.count_total_matching).toBeGreaterThan(50);
      const ctx = chartContext([fetchMeta(answer)], { matching: answer.count_total_matching });
      const mix = await buildChart('queue_mix', { rows: answer.results, ...ctx });
      const lines = [(mix.title as { subtitle: string | string[] }).subtitle].flat();
      const total = answer.count_total_matching.toLocaleString('en-US');
      expect(lines[0]).toBe(`50 of ${total} matching projects (the call's limit)`);
      expect(lines[1]).toMatch(/^Queued MW of these 50 only\./);
      // A whole answer says nothing extra.
      const whole = await refineQueue(c, { iso: 'PJM', min_mw: 200, limit: 1000 });
      const all = chartContext([fetchMeta(whole)], { matching: whole.count_total_matching });
      const spec = await buildChart('queue_mix', { rows: whole.results, ...all });
      expect(whole.results.length).toBe(whole.count_total_matching);
      expect((spec.title as { subtitle?: unknown }).subtitle).toBeUndefined();
    } finally {
      await sb.close();
    }
  });
});

describe('the rows a chart draws', () => {
  const table: Table = {
    columns: ['queue_id', 'lat', 'lng', 'capacity_mw', 'fuel_type'],
    rows: [
      ['Q0', 39.1, -77.5, 100, 'Natural Gas'],
      ['Q1', '', '', 50, 'Solar'],
      ['Q2', 30.2, -97.7, 300, 'Battery']
    ]
  };

  it('records by column name, blank cells left out (core reads them as missing)', () => {
    expect(tableRecords(table, [1, 2])).toEqual([
      { queue_id: 'Q1', capacity_mw: 50, fuel_type: 'Solar' },
      { queue_id: 'Q2', lat: 30.2, lng: -97.7, capacity_mw: 300, fuel_type: 'Battery' }
    ]);
  });

  it('a map of those records draws the rows with coordinates and names each by its chart row', async () => {
    const spec = await buildChart('queue_map', { rows: tableRecords(table, [0, 1, 2]) });
    expect((spec.usermeta as { dchub: ChartFacts }).dchub).toMatchObject({
      rows: 3,
      drawn: 2,
      omitted: { no_coordinates: 1 }
    });
  });

  it('sameRows compares as sets', () => {
    expect(sameRows([3, 1], [1, 3])).toBe(true);
    expect(sameRows([3, 1], [1, 2])).toBe(false);
    expect(sameRows([], [])).toBe(true);
    expect(sameRows([1], [1, 1])).toBe(false);
  });

  it("every view's charts are core's", async () => {
    const names = new Set(Object.values(VIEW_CHARTS).flatMap((list) => list.map((c) => c.name)));
    for (const name of names)
      await expect(buildChart(name, { rows: [] })).resolves.toHaveProperty('usermeta.dchub.chart', name);
    expect(VIEW_CHARTS.queue.filter((c) => c.kind === 'map').map((c) => c.name)).toEqual(['queue_map']);
  });
});

describe('the chart line of the notebook cell', () => {
  it('draws the chart from the data line, with the time-to-power limit the panel used', () => {
    expect(chartCall('queue_map', 'df')).toBe('charts.queue_map(df)');
    expect(chartCall('queue_time_to_power', 'df', { maxTtpMonths: 36 })).toBe(
      'charts.queue_time_to_power(df, max_ttp_months=36)'
    );
    expect(chartCall('site_score', 'site', { maxTtpMonths: Number.NaN })).toBe('charts.site_score(site)');
  });

  it('imports charts and ends with the chart (shown), under the data line', () => {
    const code = pythonCell({ call: 'hub.queue(iso="PJM")', chart: chartCall('queue_map', 'df') });
    const lines = code.trim().split('\n');
    expect(lines[0]).toBe('from dchub import Client, charts');
    expect(lines.slice(-2)).toEqual(['df = hub.queue(iso="PJM")', 'charts.queue_map(df)']);
    expect(pythonCell({ call: 'hub.queue()' }).split('\n')[0]).toBe('from dchub import Client');
  });
});
