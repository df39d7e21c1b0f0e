import * as vega from 'vega';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import {
  buildChart,
  chartTable,
  CHARTS,
  DARK_THEME,
  LIGHT_THEME,
  wrapText,
  type ChartData,
  type VegaLiteSpec,
} from '../src/charts/index.js';

/**
 * Issue 28: a chart follows the host's theme and fits the width the host gives. Every chart kind is
 * drawn by Vega (SVG, in Node) at 500 px in the dark theme: planned within 500 px, its legends drawn,
 * the background, text and footer in the theme's colours, the Okabe–Ito colours kept; the
 * numbers behind a chart come back as a table.
 */
const ISOS = ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE', 'SOCO', 'BPA', 'TVA'];
const FUELS = ['Solar', 'Wind', 'Battery', 'Natural Gas', 'Nuclear', 'Hydro', 'Solar; Storage', 'Coal'];
const queueRows = Array.from({ length: 120 }, (_, i) => ({
  queue_id: `Q${i}`,
  project_name: `Project ${i}`,
  iso: ISOS[i % ISOS.length],
  fuel_type: FUELS[i % FUELS.length],
  capacity_mw: 20 + ((i * 37) % 400),
  estimated_ttp_months: 12 + ((i * 7) % 60),
  lat: 30 + (i % 15),
  lng: -120 + ((i * 3) % 45),
}));
const VERDICTS = ['BUILD', 'CAUTION', 'AVOID'];
const marketRows = Array.from({ length: 30 }, (_, i) => ({
  market_slug: `m${i}`,
  market_name: `A rather long market name number ${i}`,
  verdict: VERDICTS[i % 3],
  composite_score: 30 + ((i * 13) % 70),
  excess_power_score: (i * 17) % 100,
  constraint_score: (i * 29) % 100,
  time_to_power_months: 6 + ((i * 5) % 50),
  latitude: 30 + (i % 15),
  longitude: -120 + ((i * 3) % 45),
}));
const rankRows = Array.from({ length: 10 }, (_, i) => ({
  rank: i + 1,
  project_name: `Candidate site with a long name ${i}`,
  objective_score: 90 - i * 5,
  norm_capacity_mw: 80 - i * 3,
  norm_fiber_km: 40 + i * 2,
}));
const site = {
  overall_score: 72.5,
  interpretation: 'Strong power, moderate fiber, some risk',
  capacity_requested_mw: 200,
  location: { lat: 39.04, lon: -77.49 },
  scores: {
    power_infrastructure: 80,
    gas_pipeline_access: 60,
    fiber_connectivity: 55,
    market_conditions: 70,
    risk_resilience: 65,
  },
};
const CITATION = 'Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud" (sandbox: synthetic)';
const ctx = { asOf: '2026-11-20', citation: CITATION, preview: { shown: 3, total: 4948 } };
const DATA: Record<string, ChartData> = {
  queue_map: { rows: queueRows, ...ctx },
  queue_mix: { rows: queueRows, ...ctx },
  queue_time_to_power: { rows: queueRows, ...ctx },
  leaderboard: { rows: marketRows, ...ctx },
  markets_map: { rows: marketRows, ...ctx },
  market_quadrant: { rows: marketRows, ...ctx },
  market_time_to_power: { rows: marketRows, ...ctx },
  ranking: { rows: rankRows, ...ctx },
  site_score: { rows: [site], ...ctx },
};
const OPTIONS: Record<string, object> = {
  queue_time_to_power: { maxTtpMonths: 36 },
  market_time_to_power: { maxTtpMonths: 36 },
  ranking: { objectives: { capacity_mw: 1, fiber_km: -1 } },
};

/** The chart drawn by Vega as SVG (text measured by Vega's estimate, as without a canvas). */
async function svgOf(spec: VegaLiteSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

describe('charts for the host: its width and its theme', () => {
  it.each(Object.keys(CHARTS))(
    '%s fits 500 px in the dark theme, legends drawn, colours from the theme',
    async (name) => {
      const spec = await buildChart(name, DATA[name], { ...OPTIONS[name], width: 500, theme: DARK_THEME });
      const svg = await svgOf(spec);
      // The plot leaves room for its axis within 500 px (the pixels themselves are measured in a browser: Galata).
      const [plot, footer] = spec.vconcat as VegaLiteSpec[];
      expect(plot.width as number).toBeLessThanOrEqual(500 - 24 - (plot.projection ? 0 : 70));
      expect(footer.width).toBeLessThanOrEqual(476);
      expect(spec.background).toBe(DARK_THEME.background);
      expect(svg).toContain(`fill="${DARK_THEME.background}"`); // the background
      expect(svg).toMatch(new RegExp(`role-title[\\s\\S]*fill="${DARK_THEME.text}"`)); // the title
      expect((footer.mark as { color?: string }).color).toBe(DARK_THEME.text);
      if (!['queue_time_to_power', 'site_score'].includes(name)) {
        expect(svg).toContain('role-legend');
        expect((spec.config as { legend: { orient: string } }).legend.orient).toBe('bottom');
      }
      expect(JSON.stringify(spec)).not.toMatch(/#444|#eeeeee/i);
    },
  );

  it('the maps draw their land in the theme and keep the Okabe–Ito meanings; outlines are decorative', async () => {
    const spec = await buildChart('queue_map', DATA.queue_map, { width: 500, theme: DARK_THEME });
    const text = JSON.stringify(spec);
    expect(text).toContain(`"fill":"${DARK_THEME.land}"`);
    expect(text).toContain('"aria":false');
    expect(text).toContain('"#F0E442"'); // Solar keeps its colour
    const light = JSON.stringify(await buildChart('markets_map', DATA.markets_map, { theme: LIGHT_THEME }));
    expect(light).toContain(`"fill":"${LIGHT_THEME.land}"`);
    expect(light).toContain('"#009E73"'); // BUILD
  });

  it('without a layout a chart keeps its own size and sets no text colour (the renderer’s theme decides)', async () => {
    const spec = await buildChart('queue_mix', DATA.queue_mix);
    expect((spec.vconcat as VegaLiteSpec[])[0].width).toBe(480);
    expect(spec.background).toBeUndefined();
    expect(((spec.vconcat as VegaLiteSpec[])[1].mark as { color?: string }).color).toBeUndefined();
    expect((spec.config as { legend: { orient: string } }).legend.orient).toBe('right');
    const wide = await buildChart('queue_map', DATA.queue_map, { width: 1200 });
    expect((wide.vconcat as VegaLiteSpec[])[0].width).toBe(640); // never wider than its own size
  });

  it('the footer wraps to the width, every word kept', async () => {
    const spec = await buildChart('queue_mix', DATA.queue_mix, { width: 320 });
    const lines = ((spec.vconcat as VegaLiteSpec[])[1].data as { values: Array<{ text: string }> }).values;
    expect(lines.map((l) => l.text).join(' ')).toContain(CITATION);
    expect(Math.max(...lines.map((l) => l.text.length))).toBeLessThanOrEqual(53);
    expect(wrapText('a-very-long-single-word here', 5)).toEqual(['a-very-long-single-word', 'here']);
  });

  it('the numbers behind a chart: the rows its marks are drawn from, the columns its tooltip names', async () => {
    const mix = chartTable(await buildChart('queue_mix', DATA.queue_mix));
    expect(mix.caption).toBe('Queued capacity by ISO and fuel');
    expect(mix.columns).toEqual(['ISO', 'Fuel', 'Capacity (MW)', 'Projects']);
    const total = mix.rows.reduce((s, r) => s + (r[2] as number), 0);
    expect(Math.round(total)).toBe(queueRows.reduce((s, r) => s + r.capacity_mw, 0));
    const map = chartTable(await buildChart('queue_map', DATA.queue_map));
    expect(map.rows).toHaveLength(queueRows.length);
    expect(map.columns[0]).toBe('Project');
    const site_ = chartTable(await buildChart('site_score', DATA.site_score));
    expect(site_.rows).toEqual([
      ['Power infrastructure', 80],
      ['Gas pipeline access', 60],
      ['Fiber connectivity', 55],
      ['Market conditions', 70],
      ['Risk and resilience', 65],
    ]);
  });
});
