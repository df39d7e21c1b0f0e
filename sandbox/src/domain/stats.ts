import type { SandboxContext } from '../context.js';
import { METROS } from '../data/metros.js';
import { SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import { Rng, round } from '../rng.js';
import { legacyTime, sum } from './markets.js';

/** Platform totals (GET /api/v1/stats): legacy `success`/`data` answer with top-level mirrors. */
export function platformStatsAnswer(ctx: SandboxContext) {
  const facilities = ctx.data.infra.facilities;
  const totals = ctx.data.lazy('markets:platform-stats', () => {
    const countries = new Map<string, number>();
    const providers = new Map<string, number>();
    const byStatus: Record<string, number> = {};
    for (const f of facilities) {
      countries.set(f.country, (countries.get(f.country) ?? 0) + 1);
      providers.set(f.operator, (providers.get(f.operator) ?? 0) + 1);
      byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
    }
    const top = (m: Map<string, number>) =>
      Object.fromEntries([...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10));
    const pipeline = facilities.filter((f) => f.status !== 'operational');
    // Articles and transactions are fixed synthetic totals of this seed (the feeds are served elsewhere).
    const rng = new Rng(`${ctx.seed}|platform-counts`);
    return {
      countries: countries.size,
      providers: providers.size,
      topCountries: top(countries),
      topProviders: top(providers),
      byStatus,
      powerMw: round(sum(facilities.filter((f) => f.status === 'operational').map((f) => f.power_mw)), 1),
      pipelineCount: pipeline.length,
      pipelineMw: round(sum(pipeline.map((f) => f.power_mw)), 1),
      articles: rng.int(38_000, 52_000),
      transactions: rng.int(1_800, 2_600),
    };
  });
  const markets = METROS.length;
  return {
    success: true,
    data: {
      total_facilities: facilities.length,
      total_power_mw: totals.powerMw,
      total_mw: totals.powerMw,
      total_substations: ctx.data.infra.substations.length,
      total_providers: totals.providers,
      total_countries: totals.countries,
      countries: totals.countries,
      total_markets: markets,
      total_articles: totals.articles,
      total_transactions: totals.transactions,
      total_gas_pipelines: ctx.data.infra.gasPipelines.length,
      top_countries: totals.topCountries,
      top_providers: totals.topProviders,
      by_status: totals.byStatus,
      pipeline_count: totals.pipelineCount,
      pipeline_mw: totals.pipelineMw,
      pipeline_gw: round(totals.pipelineMw / 1000, 2),
      _counts_note: 'Synthetic sandbox totals; total_articles and total_transactions are fixed figures of this seed.',
    },
    generated_at: legacyTime(ctx.clock.nowMs()),
    version: 'sandbox',
    facilities: facilities.length,
    markets,
    deals: totals.transactions,
    transactions: totals.transactions,
    articles: totals.articles,
    countries: totals.countries,
    providers: totals.providers,
    capacity_mw: totals.powerMw,
    substations: ctx.data.infra.substations.length,
    gas_pipelines: ctx.data.infra.gasPipelines.length,
    _source: SOURCE,
    note: SYNTHETIC_NOTICE,
  };
}
