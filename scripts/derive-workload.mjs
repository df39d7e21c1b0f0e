// A workbook-shaped workload for issue 14 (answers derived from wider answers): QUEUE formulas with
// distinct argument sets over the seven ISOs, and a column of DCPI cells. Shared by the counting
// test (core/test/derive-workload.test.ts) and `npm run bench`.

export const WORKLOAD_ISOS = ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'];

/** Seeded PRNG (mulberry32): the same seed gives the same workload and the same shuffles. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (next, xs) => xs[Math.floor(next() * xs.length)];

/** `n` distinct QUEUE argument sets, each on one ISO, with the predicates an analyst varies. */
export function queueWorkload(n = 200, seed = 14) {
  const next = rng(seed);
  const seen = new Set();
  const out = [];
  while (out.length < n) {
    const a = { iso: pick(next, WORKLOAD_ISOS) };
    const minMw = pick(next, [undefined, 50, 100, 150, 200, 250, 300, 400, 500]);
    const ttp = pick(next, [undefined, undefined, 24, 30, 36, 48, 60]);
    const fuel = pick(next, [
      undefined,
      undefined,
      undefined,
      'gas',
      'solar',
      'wind',
      'battery',
      'nuclear',
      'Solar;Storage',
    ]);
    const fiber = pick(next, [undefined, undefined, undefined, 25, 50, 100]);
    const limit = pick(next, [undefined, undefined, 50, 100, 500]);
    if (minMw !== undefined) a.min_mw = minMw;
    if (ttp !== undefined) a.max_ttp_months = ttp;
    if (fuel !== undefined) a.fuel_type = fuel;
    if (next() < 0.2) a.baseload_only = true;
    if (fiber !== undefined) a.max_fiber_km = fiber;
    if (next() < 0.2) a.geocoded_only = true;
    if (limit !== undefined) a.limit = limit;
    const key = JSON.stringify(Object.entries(a).sort());
    if (!seen.has(key)) {
      seen.add(key);
      out.push(a);
    }
  }
  return out;
}

/** `n` DCPI cells over distinct markets: mostly the verdict, some other fields the list carries. */
export function dcpiWorkload(slugs, n = 40, seed = 14) {
  const next = rng(seed + 1);
  return slugs.slice(0, n).map((slug) => ({
    slug,
    field: pick(next, ['verdict', 'verdict', 'verdict', 'market_name', 'iso', 'computed_at']),
  }));
}

/** The calls in a seeded random order (Fisher–Yates). */
export function shuffled(items, seed) {
  const next = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A QUEUE argument set as `dchub queue` arguments. */
export function queueArgv(a) {
  const argv = ['queue', '--iso', a.iso];
  if (a.min_mw !== undefined) argv.push('--min-mw', String(a.min_mw));
  if (a.max_ttp_months !== undefined) argv.push('--max-ttp-months', String(a.max_ttp_months));
  if (a.fuel_type !== undefined) argv.push('--fuel-type', a.fuel_type);
  if (a.baseload_only) argv.push('--baseload-only');
  if (a.max_fiber_km !== undefined) argv.push('--max-fiber-km', String(a.max_fiber_km));
  if (a.geocoded_only) argv.push('--geocoded-only');
  if (a.limit !== undefined) argv.push('--limit', String(a.limit));
  return argv;
}

/** Every call of the workload as `dchub` arguments, tagged with what it asks. */
export function workloadCalls(queueSets, dcpiCells) {
  return [
    ...queueSets.map((a) => ({ kind: 'queue', args: a, argv: [...queueArgv(a), '--format', 'json'] })),
    ...dcpiCells.map((d) => ({
      kind: 'dcpi',
      args: d,
      argv: ['dcpi', d.slug, '--field', d.field, '--format', 'json'],
    })),
  ];
}
