/** Grid and energy tools: fuel mix and demand by ISO, grid-intelligence regions, energy prices. */
import { normalizeIso, scalarText, type FuelMixIso } from '@dchub/core';
import { findUsState, fuelMix, statePrices } from '../../data/energy.js';
import { gridRegionAnswer, gridRegionsAt } from '../../domain/energy.js';
import { SYNTHETIC_NOTICE } from '../../labels.js';
import { ToolError, labels, type ToolEnv, type ToolResult } from './common.js';
import { energyPricesSummary } from './markets.js';
import { findMetro } from './places.js';

const HOUR_MS = 3_600_000;

/** Refuses a value outside `valid`, naming the parameter and the choices. */
function choice<T extends string>(args: Record<string, unknown>, name: string, valid: readonly T[], fallback: T): T {
  const v = args[name];
  if (v === undefined) return fallback;
  const s = (scalarText(v) ?? '').trim().toLowerCase();
  const hit = valid.find((x) => x === s);
  if (!hit)
    throw new ToolError({
      error: `${name}: must be one of ${valid.join(', ')}, got ${JSON.stringify(v)}`,
      param: name,
      [`valid_${name}s`]: valid,
    });
  return hit;
}

export const GRID_METRICS = ['fuel_mix', 'demand', 'renewables'] as const;
export const GRID_PERIODS = ['current', '24h'] as const;

/**
 * get_grid_data: `metric` picks fuel mix, demand or the renewable share; `period` the latest interval or the last 24
 * hours.
 */
export function gridData(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const iso = ((args.iso as string | undefined) ?? 'ERCOT') as FuelMixIso;
  const metric = choice(args, 'metric', GRID_METRICS, 'fuel_mix');
  const period = choice(args, 'period', GRID_PERIODS, 'current');
  const at = (ms: number) => fuelMix(env.ctx.seed, iso, ms, SYNTHETIC_NOTICE);
  const renewable = (mix: ReturnType<typeof at>) =>
    Math.round(
      mix.fuel_mix.filter((f) => /wind|solar|hydro/i.test(f.source)).reduce((s, f) => s + f.percentage, 0) * 10,
    ) / 10;
  const point = (mix: ReturnType<typeof at>) =>
    metric === 'fuel_mix'
      ? { timestamp: mix.timestamp, total_generation_mw: mix.total_generation_mw, fuel_mix: mix.fuel_mix }
      : metric === 'demand'
        ? { timestamp: mix.timestamp, demand_mw: mix.total_generation_mw }
        : { timestamp: mix.timestamp, renewable_share_pct: renewable(mix) };
  const now = at(env.nowMs);
  const series =
    period === '24h' ? Array.from({ length: 24 }, (_, i) => point(at(env.nowMs - (23 - i) * HOUR_MS))) : undefined;
  return {
    success: true,
    iso: now.iso,
    metric,
    period,
    ...point(now),
    ...(series ? { series } : {}),
    source: now.source,
    ...labels(),
  };
}

/** Grid-intelligence regions by ISO (NYISO and ISO-NE share one region, MISO and SPP another). */
const REGION_OF_ISO: Record<string, string> = {
  ERCOT: 'ercot',
  PJM: 'pjm',
  MISO: 'miso-spp',
  SPP: 'miso-spp',
  CAISO: 'caiso',
  NYISO: 'nyiso-isone',
  'ISO-NE': 'nyiso-isone',
};

/** get_grid_intelligence by region id, region name, ISO or market. */
export function gridIntelligence(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const regions = gridRegionsAt(env.ctx, env.nowMs);
  const valid = regions.map((r) => r.id);
  const fail = (error: string, param: string) => {
    throw new ToolError({
      error,
      param,
      valid_regions: valid,
      hint: 'Pass region_id, iso, region or market.',
      example: { region_id: 'ercot' },
    });
  };
  let id: string | undefined;
  if (args.region_id !== undefined) {
    id = (scalarText(args.region_id) ?? '').trim().toLowerCase();
    if (!valid.includes(id)) fail(`region_id: unknown region ${JSON.stringify(args.region_id)}`, 'region_id');
  } else if (args.region !== undefined) {
    const want = (scalarText(args.region) ?? '').trim().toLowerCase();
    id = regions.find((r) => r.id === want || r.name.toLowerCase() === want || r.name.toLowerCase().includes(want))?.id;
    if (!id) fail(`region: unknown region ${JSON.stringify(args.region)}`, 'region');
  } else if (args.iso !== undefined) {
    const iso = normalizeIso(scalarText(args.iso) ?? '');
    id = iso ? REGION_OF_ISO[iso] : undefined;
    if (!id) fail(`iso: unknown ISO ${JSON.stringify(args.iso)} (PJM, ERCOT, MISO, CAISO, SPP, NYISO, ISO-NE)`, 'iso');
  } else if (args.market !== undefined) {
    const m = findMetro(args.market);
    if (!m) fail(`market: unknown market ${JSON.stringify(args.market)}`, 'market');
    const iso = normalizeIso(m!.iso);
    id = iso ? REGION_OF_ISO[iso] : undefined;
    if (!id) fail(`market: ${m!.slug} is in ${m!.iso}, outside the US ISO regions`, 'market');
  } else {
    throw new ToolError({
      error: 'region required',
      hint: 'Pass region_id, iso, region or market.',
      valid_regions: valid,
      example: { region_id: 'ercot' },
    });
  }
  return gridRegionAnswer(env.ctx, env.nowMs, id!)!;
}

export const ENERGY_DATA_TYPES = ['summary', 'retail', 'wholesale', 'gas'] as const;

/** get_energy_prices: `data_type` picks the retail, wholesale or gas figures (summary: all). */
export function energyPrices(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const type = choice(args, 'data_type', ENERGY_DATA_TYPES, 'summary');
  const summary = energyPricesSummary(args, env);
  const st = summary.state ? findUsState(summary.state as string) : undefined;
  if (args.state !== undefined && !st)
    throw new ToolError({ error: `state: unknown US state ${JSON.stringify(args.state)}`, param: 'state' });
  const { iso, state, as_of, success, ...figures } = summary;
  const head = { success, data_type: type, iso, state, as_of };
  switch (type) {
    case 'retail':
      return {
        ...head,
        retail_price_cents_kwh: figures.retail_price_cents_kwh,
        industrial_price_cents_kwh: figures.industrial_price_cents_kwh,
        residential_price_cents_kwh: figures.residential_price_cents_kwh,
        ...(st ? { retail: statePrices(env.ctx.seed, st, env.nowMs, SYNTHETIC_NOTICE) } : {}),
        ...labels(),
      };
    case 'wholesale':
      return {
        ...head,
        wholesale_price_usd_mwh: figures.wholesale_price_usd_mwh,
        grid_status: figures.grid_status,
        ...labels(),
      };
    case 'gas':
      return { ...head, natural_gas_usd_mmbtu: figures.natural_gas_usd_mmbtu, ...labels() };
    default:
      return st
        ? { ...summary, data_type: type, retail: statePrices(env.ctx.seed, st, env.nowMs, SYNTHETIC_NOTICE) }
        : { ...summary, data_type: type };
  }
}
