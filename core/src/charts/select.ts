import type { VegaLiteSpec } from './spec.js';

/**
 * Maps whose points can be selected, and a host told which: a click selects a point, a shift-click
 * adds or removes one, a double click clears; the others dim. Each point carries `row`, the index of
 * the row it was drawn from, so a host maps a selection to its rows (a grid's) without reading ids.
 * A host reads the selection from the top-level signal `pick` (`{row: [2, 5]}`) and sets it by
 * writing the tuples of `selectionStore` into `pick_store` — the tuples a click writes, so a later
 * shift-click toggles them.
 */
export const POINT_SELECTION = { param: 'pick', store: 'pick_store', unit: 'dchub_points', field: 'row' } as const;

/** The charts drawn with selectable points. */
export const SELECTABLE_CHARTS: readonly string[] = ['queue_map', 'markets_map'];

const FIELDS = [{ type: 'E', field: POINT_SELECTION.field }];
const PICKED = { param: POINT_SELECTION.param, empty: false };

/** A point layer made selectable: named (the unit a click's tuple names), the selection, the highlight. */
export function selectablePoints(layer: VegaLiteSpec, ink = '#000000'): VegaLiteSpec {
  const mark = layer.mark as Record<string, unknown>;
  const opacity = typeof mark.opacity === 'number' ? mark.opacity : 1;
  const strokeWidth = typeof mark.strokeWidth === 'number' ? mark.strokeWidth : 0;
  const stroke = typeof mark.stroke === 'string' ? mark.stroke : null;
  return {
    ...layer,
    name: POINT_SELECTION.unit,
    params: [{ name: POINT_SELECTION.param, select: { type: 'point', fields: [POINT_SELECTION.field] } }],
    encoding: {
      ...(layer.encoding as Record<string, unknown>),
      // With nothing selected every point keeps its opacity; with a selection the others fade.
      opacity: { condition: { param: POINT_SELECTION.param, value: opacity }, value: 0.15 },
      stroke: { condition: { ...PICKED, value: ink }, value: stroke },
      strokeWidth: { condition: { ...PICKED, value: 2 }, value: strokeWidth },
    },
  };
}

/** Most rows written one tuple each; Vega tests every point against every tuple. */
export const STORE_TUPLES_MAX = 100;

/**
 * The store tuples that select these rows: one per row, as a click writes them, up to
 * STORE_TUPLES_MAX; beyond, one tuple enumerating them all (5,370 rows: 0.1 s to draw instead of
 * 1.5 s), where a shift-click adds a point but cannot take one of them out.
 */
export function selectionStore(
  rows: Iterable<number>,
): Array<{ unit: string; fields: typeof FIELDS; values: [number] | [number[]] }> {
  const unique = [...new Set(rows)];
  if (unique.length > STORE_TUPLES_MAX) return [{ unit: POINT_SELECTION.unit, fields: FIELDS, values: [unique] }];
  return unique.map((row) => ({ unit: POINT_SELECTION.unit, fields: FIELDS, values: [row] }));
}

/** The rows of a `pick` signal's value (`{row: [...]}`), in order, without repeats; nothing selected gives []. */
export function selectedRows(value: unknown): number[] {
  const rows =
    value && typeof value === 'object' ? (value as Record<string, unknown>)[POINT_SELECTION.field] : undefined;
  return Array.isArray(rows)
    ? [...new Set(rows.filter((r): r is number => typeof r === 'number' && Number.isInteger(r) && r >= 0))]
    : [];
}
