/**
 * One meaning per colour, everywhere: the DCPI verdicts and the fuel groups of the queue, in the
 * Okabe–Ito palette (told apart under the common colour-vision deficiencies). A verdict is never
 * told by colour alone: its shape differs too, and the legend and tooltip name it.
 */
export const VERDICT_ORDER = ['BUILD', 'CAUTION', 'AVOID'] as const;
export const VERDICT_COLORS = ['#009E73', '#E69F00', '#D55E00'] as const;
export const VERDICT_SHAPES = ['circle', 'triangle-up', 'square'] as const;
/** The colour of a verdict (BUILD, CAUTION, AVOID; any case), undefined for another value. */
export const verdictColorOf = (verdict: string): string | undefined =>
  VERDICT_COLORS[VERDICT_ORDER.indexOf(verdict.toUpperCase() as never)];

/** Bars of a score (composite, objective score) where colour says nothing of a verdict: Okabe–Ito blue. */
export const SCORE_COLOR = '#0072B2';
/**
 * A measure where low is good (months to power): the BUILD colour at the low end, CAUTION between, AVOID at the high
 * end.
 */
export const LOW_IS_GOOD = { low: VERDICT_COLORS[0], mid: VERDICT_COLORS[1], high: VERDICT_COLORS[2] } as const;
/** The objectives of a ranking, in order (no verdict or fuel meaning). */
export const METRIC_COLORS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#999999',
] as const;

/** Vega-Lite encodings of a verdict field: colour and, for point marks, shape. */
export const verdictColor = (fieldName = 'verdict') => ({
  field: fieldName,
  type: 'nominal',
  title: 'Verdict',
  scale: { domain: [...VERDICT_ORDER], range: [...VERDICT_COLORS] },
});
export const verdictShape = (fieldName = 'verdict') => ({
  field: fieldName,
  type: 'nominal',
  title: 'Verdict',
  scale: { domain: [...VERDICT_ORDER], range: [...VERDICT_SHAPES] },
});

/**
 * Fuel groups of interconnection requests, from the ISOs' raw labels (`Natural Gas`, `BATTERY`, `Photovoltaic +
 * Battery`).
 */
export const FUEL_GROUPS = ['Solar', 'Wind', 'Storage', 'Solar + storage', 'Gas', 'Nuclear', 'Hydro', 'Other'] as const;
export type FuelGroup = (typeof FUEL_GROUPS)[number];
export const FUEL_COLORS = [
  '#F0E442',
  '#56B4E9',
  '#CC79A7',
  '#E69F00',
  '#D55E00',
  '#009E73',
  '#0072B2',
  '#999999',
] as const;

const SOLAR = /solar|photovoltaic|\bpv\b/i;
const STORAGE = /batter|storage|\bbess\b/i;

/** The group of a raw fuel label; blank or unknown labels are Other. */
export function fuelGroup(label: unknown): FuelGroup {
  const s = typeof label === 'string' ? label : '';
  if ((SOLAR.test(s) && STORAGE.test(s)) || /^hybrid$/i.test(s.trim())) return 'Solar + storage';
  if (SOLAR.test(s)) return 'Solar';
  if (STORAGE.test(s)) return 'Storage';
  if (/wind/i.test(s)) return 'Wind';
  if (/gas|methane|\bcc\b|combined cycle|peaker|\bct\b/i.test(s)) return 'Gas';
  if (/nuclear/i.test(s)) return 'Nuclear';
  if (/hydro|pumped/i.test(s)) return 'Hydro';
  return 'Other';
}

/** The colour of a fuel group. */
export const fuelGroupColor = (g: FuelGroup): string => FUEL_COLORS[FUEL_GROUPS.indexOf(g)];

export const fuelColor = (fieldName = 'fuel_group') => ({
  field: fieldName,
  type: 'nominal',
  title: 'Fuel',
  scale: { domain: [...FUEL_GROUPS], range: [...FUEL_COLORS] },
});
