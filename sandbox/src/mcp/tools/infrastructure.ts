/** Location tools for what is built near a site (sandbox layers): substations, lines, pipelines, plants, fiber. */
import { haversineKm, round, unit } from '../../rng.js';
import { stateAt } from '../../domain/sites.js';
import { ToolError, labels, lc, type ToolEnv, type ToolResult } from './common.js';
import { findMetro } from './places.js';

const KV = [69, 115, 138, 230, 345, 500];

export function infrastructure(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const lat = args.lat as number | undefined;
  const lon = (args.lon ?? args.lng) as number | undefined;
  if (lat === undefined || lon === undefined)
    throw new ToolError({ error: 'lat and lon are required', example: { lat: 39.04, lon: -77.49, radius_km: 50 } });
  const radius = (args.radius_km as number | undefined) ?? 50;
  const limit = (args.limit as number | undefined) ?? 10;
  const minKv = (args.min_voltage_kv as number | undefined) ?? 0;
  const seed = env.ctx.seed;
  const infra = env.ctx.data.infra;
  const degLat = radius / 111 + 0.01;
  const degLon = radius / (111 * Math.max(0.1, Math.cos((lat * Math.PI) / 180))) + 0.01;
  const near = <P extends { lat: number; lon: number }>(pts: readonly P[]) =>
    pts
      .filter((p) => Math.abs(p.lat - lat) <= degLat && Math.abs(p.lon - lon) <= degLon)
      .map((p) => ({ p, km: haversineKm(lat, lon, p.lat, p.lon) }))
      .filter((x) => x.km <= radius)
      .sort((a, b) => a.km - b.km);
  const subs = near(infra.substations)
    .map(({ p, km }) => ({
      lat: round(p.lat, 5),
      lon: round(p.lon, 5),
      voltage_kv: KV[Math.floor(unit(seed, 'kv', p.lat, p.lon) * KV.length)],
      distance_km: round(km, 1),
    }))
    .filter((s) => s.voltage_kv >= minKv);
  const plants = near(infra.powerPlants).map(({ p, km }) => ({
    lat: round(p.lat, 5),
    lon: round(p.lon, 5),
    capacity_mw: p.capacity_mw,
    distance_km: round(km, 1),
  }));
  const pipes = near(infra.gasPipelines).map(({ p, km }) => ({
    lat: round(p.lat, 5),
    lon: round(p.lon, 5),
    distance_km: round(km, 1),
  }));
  const lines = subs
    .filter((s) => s.voltage_kv > 69)
    .map((s) => ({ voltage_kv: s.voltage_kv, via_substation_km: s.distance_km }));
  const layers: Record<string, unknown[]> = {
    substations: subs,
    transmission: lines,
    pipelines: pipes,
    power_plants: plants,
  };
  const wanted = args.layer ? [args.layer as string] : Object.keys(layers);
  const out: ToolResult = {
    success: true,
    location: { lat, lon, state: stateAt(lat, lon) },
    radius_km: radius,
    summary: {
      substations: subs.length,
      max_substation_kv: subs.length ? Math.max(...subs.map((s) => s.voltage_kv)) : null,
      transmission_over_69kv: lines.length,
      gas_pipelines: pipes.length,
      power_plants: plants.length,
      generation_capacity_mw: round(
        plants.reduce((s, p) => s + p.capacity_mw, 0),
        1,
      ),
    },
  };
  for (const k of wanted) out[k] = layers[k].slice(0, limit);
  return { ...out, source: 'Sandbox infrastructure layers (synthetic; shapes follow HIFLD/EIA layers)', ...labels() };
}

/** Keyless preview of get_infrastructure: counts only. */
export function infrastructurePreview(full: ToolResult): ToolResult {
  const { substations, transmission, pipelines, power_plants, ...rest } = full;
  const total = [substations, transmission, pipelines, power_plants].reduce<number>(
    (s, l) => s + (Array.isArray(l) ? l.length : 0),
    0,
  );
  return {
    ...rest,
    _locked_fields: ['pipelines', 'power_plants', 'substations', 'transmission'].filter((k) => k in full),
    _total_available: total,
  };
}

export function fiberIntel(args: Record<string, unknown>, env: ToolEnv): ToolResult {
  const seed = env.ctx.seed;
  const infra = env.ctx.data.infra;
  const metro = args.market !== undefined ? findMetro(args.market) : undefined;
  if (args.market !== undefined && !metro)
    throw new ToolError({ error: 'unknown market', market: args.market, example: 'northern-virginia' });
  let nodes = infra.fiberNodes;
  if (metro) nodes = nodes.filter((n) => haversineKm(metro.lat, metro.lon, n.lat, n.lon) <= 150);
  if (args.carrier) nodes = nodes.filter((n) => lc(n.carrier).includes(lc(args.carrier)));
  const byCarrier = new Map<string, typeof nodes>();
  for (const n of nodes) byCarrier.set(n.carrier, [...(byCarrier.get(n.carrier) ?? []), n]);
  const TYPES = ['metro', 'longhaul', 'dark', 'ix'] as const;
  const routes: Array<Record<string, unknown>> = [];
  for (const [carrier, ns] of [...byCarrier.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sorted = [...ns].sort((a, b) => a.lon - b.lon || a.lat - b.lat);
    for (let i = 0; i + 1 < sorted.length; i++) {
      const a = sorted[i];
      const b = sorted[i + 1];
      const km = haversineKm(a.lat, a.lon, b.lat, b.lon);
      const type = km > 150 ? 'longhaul' : TYPES[Math.floor(unit(seed, 'route-type', carrier, i) * TYPES.length)];
      if (args.route_type && type !== args.route_type) continue;
      routes.push({
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [round(a.lon, 4), round(a.lat, 4)],
            [round(b.lon, 4), round(b.lat, 4)],
          ],
        },
        properties: {
          carrier,
          route_type: type,
          fiber_count: [48, 96, 144, 288, 432, 864][Math.floor(unit(seed, 'fibers', carrier, i) * 6)],
          lit_capacity_tbps: round(1 + unit(seed, 'lit', carrier, i) * 39, 1),
          distance_km: round(km, 1),
          ...(args.include_sources ? { source: 'Sandbox fiber layer (synthetic)' } : {}),
        },
      });
    }
  }
  return {
    success: true,
    type: 'FeatureCollection',
    market: metro?.slug ?? null,
    carriers: [...byCarrier.keys()].sort(),
    total: routes.length,
    features: routes.slice(0, 200),
    ...labels(),
  };
}
