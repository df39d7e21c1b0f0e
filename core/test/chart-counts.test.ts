import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { CHARTS, SUMMARIES, buildChart, type ChartData, type VegaLiteSpec } from '../src/charts/index.js';

/**
 * Charts never misstate a total: every chart kind, drawn from a limited answer (the call's limit cut the rows),
 * a gated preview and a whole answer, says in its subtitle what part of the whole it shows, and nothing extra
 * when whole; a chart that adds rows up (queue mix, time to power) says how to draw the whole. Excel's native
 * charts get the same lines from SUMMARIES.
 */
const FUELS = ['Solar', 'Wind', 'Natural Gas', 'Battery'];
const ISOS = ['PJM', 'ERCOT', 'MISO'];
const queueRows = Array.from({ length: 12 }, (_, i) => ({
  queue_id: `q${i}`,
  iso: ISOS[i % 3],
  fuel_type: FUELS[i % 4],
  capacity_mw: 50 + 10 * i,
  lat: 35 + i / 4,
  lng: -95 + i / 3,
  estimated_ttp_months: 20 + i,
}));
const marketRows = ISOS.map((iso, i) => ({
  market_slug: iso.toLowerCase(),
  market_name: `${iso} market`,
  verdict: ['BUILD', 'WATCH', 'AVOID'][i],
  composite_score: 70 - 10 * i,
  excess_power_score: 60 - 5 * i,
  constraint_score: 30 + 5 * i,
  time_to_power_months: 24 + 6 * i,
  lat: 39 + i,
  lon: -77 - 10 * i,
  iso,
}));
const rankRows = [1, 2, 3].map((rank) => ({
  rank,
  candidate_id: `c${rank}`,
  objective_score: 90 - 10 * rank,
  norm_capacity_mw: 80 - rank,
  norm_fiber_km: 50 + rank,
}));
const SITE = [
  { overall_score: 71.5, power_score: 80, fiber_score: 60, water_score: 55, land_score: 70, risk_score: 65 },
];

const ROWS: Record<string, ChartData['rows']> = {
  queue_map: queueRows,
  queue_mix: queueRows,
  queue_time_to_power: queueRows,
  leaderboard: marketRows,
  markets_map: marketRows,
  market_quadrant: marketRows,
  market_time_to_power: marketRows,
  ranking: rankRows,
  site_score: SITE,
};
const OPTIONS = { objectives: { capacity_mw: 1, fiber_km: -0.5 } };
const NOUN: Record<string, string> = { leaderboard: 'markets', ranking: 'candidates' };
const nounOf = (name: string) => NOUN[name] ?? (name.startsWith('queue') ? 'projects' : 'markets');
const SUMS = new Set(['queue_mix', 'queue_time_to_power']);

/** The subtitle as lines (a string is one line); compiled by Vega-Lite, so an array subtitle is valid. */
function subtitle(spec: VegaLiteSpec): string[] {
  expect(() => compile(spec as never)).not.toThrow();
  const s = (spec.title as { subtitle?: string | string[] }).subtitle;
  return s === undefined ? [] : [s].flat();
}

async function drawn(name: string, ctx: Partial<ChartData>): Promise<string[]> {
  return subtitle(await buildChart(name, { rows: ROWS[name], ...ctx }, OPTIONS));
}

describe('chart subtitles: shown of total', () => {
  for (const name of Object.keys(CHARTS).filter((n) => n !== 'site_score')) {
    const n = ROWS[name].length;
    const noun = nounOf(name);
    it(`${name}: a limited answer says "${n} of 1,611 matching ${noun} (the call's limit)"`, async () => {
      const lines = await drawn(name, { matching: 1611 });
      expect(lines[0]).toBe(`${n} of 1,611 matching ${noun} (the call's limit)`);
      if (SUMS.has(name)) {
        expect(lines[1]).toMatch(new RegExp(`^(Queued MW|Medians) of these ${n} only\\. For all 1,611 \\(more than`));
        expect(lines[2]).toContain('narrow the filter, or ask one ISO at a time');
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
        // Under the largest limit, the largest limit draws the whole.
        const few = await drawn(name, { matching: 900 });
        expect(few[0]).toBe(`${n} of 900 matching ${noun} (the call's limit)`);
        expect(few[1]).toContain('Ask again with limit=1000 to draw all 900');
      } else expect(lines.slice(1).join(' ')).not.toMatch(/limit=|one ISO/);
    });

    it(`${name}: a gated preview says "${n} of 308 ${noun} (gated preview)"`, async () => {
      const lines = await drawn(name, { preview: { shown: n, total: 308 } });
      expect(lines[0]).toBe(`${n} of 308 ${noun} (gated preview)`);
      expect(lines.length > 1 && /preview's rows only/.test(lines[1])).toBe(SUMS.has(name));
    });

    it(`${name}: a whole answer says nothing extra`, async () => {
      const whole = [
        await drawn(name, {}),
        await drawn(name, { matching: n }),
        await drawn(name, { preview: { shown: n, total: n } }),
      ];
      for (const lines of whole) expect(lines.join(' ')).not.toMatch(/ of \d|gated preview|call's limit|only/);
      // Its own subtitle, if it has one, is unchanged.
      expect(whole[1]).toEqual(whole[0]);
    });
  }

  it('site_score: one record is a whole answer; its own subtitle stays', async () => {
    const lines = await drawn('site_score', {});
    expect(lines.join(' ')).not.toMatch(/ of \d|gated preview|call's limit/);
  });
});

describe("Excel's native charts say the same (SUMMARIES)", () => {
  for (const name of Object.keys(SUMMARIES) as Array<keyof typeof SUMMARIES>) {
    it(`${name}: limited, preview and whole, as the Vega-Lite subtitle`, async () => {
      const own = subtitle(await buildChart(name, { rows: ROWS[name] }, OPTIONS));
      for (const ctx of [{ matching: 1611 }, { preview: { shown: 3, total: 308 } }, {}] as Partial<ChartData>[]) {
        const d = { rows: ROWS[name], ...ctx };
        const s = SUMMARIES[name](d, OPTIONS);
        const lines = subtitle(await buildChart(name, d, OPTIONS));
        const counts = lines.filter((l) => !own.includes(l));
        expect(s.subtitle ?? []).toEqual(counts);
        expect(counts.length > 0).toBe(Object.keys(ctx).length > 0);
      }
    });
  }
});
