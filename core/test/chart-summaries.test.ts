import { describe, expect, it } from 'vitest';
import {
  FUEL_COLORS,
  FUEL_GROUPS,
  SCORE_COLOR,
  SUMMARIES,
  buildChart,
  lacksCoordinates,
  leaderboardSummary,
  queueMixSummary,
  rankingSummary,
  verdictColorOf,
  withMarketCoordinates,
} from '../src/charts/index.js';

/**
 * The charts a host draws natively (Excel) come from core as small tables, computed by the same
 * rules as the Vega-Lite charts: the same fuel groups, the same top markets, contributions that add
 * up to the objective score.
 */
const QUEUE = [
  { iso: 'PJM', fuel_type: 'Natural Gas', capacity_mw: 300 },
  { iso: 'PJM', fuel_type: 'SOLAR', capacity_mw: 120.25 },
  { iso: 'PJM', fuel_type: 'Photovoltaic', capacity_mw: 30 },
  { iso: 'ERCOT', fuel_type: 'BATTERY', capacity_mw: 200 },
  { iso: 'ERCOT', fuel_type: 'Solar + Battery', capacity_mw: 50 },
  { iso: 'MISO', fuel_type: 'Wind', capacity_mw: '' }, // withheld in a preview: not a zero
];

describe('chart summaries', () => {
  it('queue mix: MW by ISO (most first) × the fuel groups present, in the fixed order, with their colours', async () => {
    const s = queueMixSummary({ rows: QUEUE });
    expect(s.columns).toEqual(['ISO', 'Solar', 'Storage', 'Solar + storage', 'Gas']);
    expect(s.rows).toEqual([
      ['PJM', 150.3, 0, 0, 300],
      ['ERCOT', 0, 200, 50, 0],
    ]);
    expect(s.colors).toEqual(
      ['Solar', 'Storage', 'Solar + storage', 'Gas'].map((g) => FUEL_COLORS[FUEL_GROUPS.indexOf(g as never)]),
    );
    expect(s).toMatchObject({ charted: 5, stacked: true, categoryTitle: 'ISO', valueTitle: 'Queued capacity (MW)' });
    expect(s.notes).toEqual(['1 of 6 projects have no capacity (not drawn).']);
    // The Vega-Lite chart sums the same cells.
    const spec = await buildChart('queue_mix', { rows: QUEUE });
    const values = (
      (spec.vconcat as Array<{ data: { values: Array<{ iso: string; mw: number }> } }>)[0].data.values as Array<{
        iso: string;
        mw: number;
      }>
    )
      .filter((v) => v.iso === 'PJM')
      .reduce((a, v) => a + v.mw, 0);
    expect(values).toBeCloseTo(450.3, 5);
    expect((spec.title as { text: string }).text).toBe(s.title);
  });

  it('leaderboard: the top markets by composite score, verdict beside; markets without a score are counted', () => {
    const rows = [
      { market_slug: 'a', market_name: 'Alpha', verdict: 'build', composite_score: 71 },
      { market_slug: 'b', market_name: 'Beta', verdict: 'AVOID', composite_score: 22.5 },
      { market_slug: 'c', market_name: 'Gamma', verdict: 'CAUTION', composite_score: 55 },
      { market_slug: 'd', market_name: 'Delta', verdict: 'BUILD', composite_score: null },
    ];
    const s = leaderboardSummary({ rows }, { top: 2 });
    expect(s.rows).toEqual([
      ['Alpha', 71, 'BUILD'],
      ['Gamma', 55, 'CAUTION'],
    ]);
    expect(s).toMatchObject({
      title: 'DCPI leaderboard: top 2 markets',
      charted: 2,
      colors: [SCORE_COLOR],
      valueRange: [0, 100],
      stacked: false,
    });
    expect(s.notes).toEqual(['1 of 4 markets have no composite score (free keys get null scores) (not drawn).']);
    expect(SUMMARIES.leaderboard({ rows }, { top: 3 }).rows).toHaveLength(3);
  });

  it('ranking: with the weights, contributions per objective that add up to the objective score; without, the score alone', () => {
    // objective score = (1 × 80 + 0.5 × 40) / 1.5 = 66.67 and (1 × 20 + 0.5 × 100) / 1.5 = 46.67
    const rows = [
      { rank: 2, id: 'q2', objective_score: 46.67, norm_capacity_mw: 20, norm_fiber_km: 100 },
      { rank: 1, id: 'q1', objective_score: 66.67, norm_capacity_mw: 80, norm_fiber_km: 40 },
      { rank: '', id: 'q3', objective_score: '' },
    ];
    const weighted = rankingSummary({ rows }, { objectives: { capacity_mw: 1, fiber_km: -0.5 } });
    expect(weighted.columns).toEqual(['Candidate', 'capacity_mw', 'fiber_km']);
    expect(weighted.rows.map((r) => r[0])).toEqual(['#1 q1', '#2 q2']);
    for (const [i, r] of weighted.rows.entries())
      expect((r[1] as number) + (r[2] as number)).toBeCloseTo([66.67, 46.67][i], 1);
    expect(weighted.stacked).toBe(true);
    expect(weighted.notes).toEqual(['1 of 3 candidates carry no objective (not drawn).']);
    const plain = rankingSummary({ rows });
    expect(plain.rows).toEqual([
      ['#1 q1', 66.67],
      ['#2 q2', 46.67],
    ]);
    expect(plain).toMatchObject({ stacked: false, columns: ['Candidate', 'Objective score'] });
  });

  it('places brief rows (no coordinates) with the DCPI scores of the same slug', () => {
    const briefs = [
      { market_slug: 'ashburn', market_name: 'Ashburn', verdict: 'BUILD' },
      { market_slug: 'nowhere', market_name: 'Nowhere', verdict: 'AVOID' },
      { market_slug: 'dallas', latitude: 32.8, longitude: -96.8 },
    ];
    expect(lacksCoordinates(briefs)).toBe(true);
    const scores = [
      { market_slug: 'ashburn', latitude: 39.04, longitude: -77.49 },
      { market_slug: 'dallas', latitude: 1, longitude: 2 },
    ];
    const placed = withMarketCoordinates(briefs, scores);
    expect(placed[0]).toMatchObject({ market_slug: 'ashburn', latitude: 39.04, longitude: -77.49 });
    expect(placed[1]).toBe(briefs[1]);
    expect(placed[2]).toBe(briefs[2]); // its own coordinates win
    expect(lacksCoordinates([{ market_slug: 'x', lat: 1, lng: 2 }])).toBe(false);
  });

  it('names the verdict colours by verdict, any case', () => {
    expect(['BUILD', 'caution', 'Avoid', 'LOW_SIGNAL'].map(verdictColorOf)).toEqual([
      '#009E73',
      '#E69F00',
      '#D55E00',
      undefined,
    ]);
  });
});
