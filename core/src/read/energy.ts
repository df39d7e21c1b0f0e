import { scalarText } from '../args.js';
import { SchemaDriftError } from '../errors.js';
import { EnergyPrices, FuelMix, FuelMixEntry, type EnergyPricesT, type FuelMixT } from '../schemas/energy.js';
import type { Reader } from './decode.js';
import { isRecord, parseTolerant, readRecords } from './tolerant.js';

/** GET /api/grid/fuel-mix (notes §2.16): the live answer, or the EIA annual-average fallback (no totals). */
export const readFuelMix: Reader<FuelMixT> = {
  what: 'fuel mix',
  read(json, ctx) {
    if (!isRecord(json) || !Array.isArray(json.fuel_mix)) throw new SchemaDriftError('fuel_mix', 'missing');
    const entries = readRecords(json.fuel_mix, FuelMixEntry, ctx.warnings, {
      what: 'fuel',
      name: (r, i) => `fuel ${scalarText((r as Record<string, unknown> | null)?.source) ?? i + 1}`,
    });
    if (typeof json.note === 'string' && json.total_generation_mw === undefined) ctx.warnings.push(json.note);
    const parsed = parseTolerant(FuelMix, {
      iso: ctx.params?.get('iso') ?? '',
      timestamp: null,
      source: '',
      ...json,
      fuel_mix: [],
    });
    parsed.fuel_mix = entries;
    return parsed;
  },
};

/** GET /api/energy/prices/{state} (notes §2.17): live or fallback; decimal strings coerced. */
export const readEnergyPrices: Reader<EnergyPricesT> = {
  what: 'energy prices',
  read(json, ctx) {
    if (isRecord(json) && json.data_quality === 'fallback')
      ctx.warnings.push(
        `prices are the service's fallback (${typeof json.source === 'string' ? json.source : 'historical data'}), not live`,
      );
    return parseTolerant(EnergyPrices, { source: '', ...(isRecord(json) ? json : {}) });
  },
};
