import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { ValidationError } from '../errors.js';
import { buildChart, type ChartData, type ChartOptions, type VegaLiteSpec } from '../charts/index.js';
import { chartPage } from '../charts/page.js';

/**
 * Charts for a host that holds rows (the Python API's frames): the rows and their attributes in the
 * host's names, answered with core's spec; and a spec written as an offline web page or an SVG.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * `{rows, as_of, citation, preview: {shown, total_available}, count_total_matching, stale, age_seconds, stale_reason}`
 * as core's ChartData.
 */
export function chartDataOf(v: unknown): ChartData {
  if (!isRecord(v) || !Array.isArray(v.rows)) throw new ValidationError('data', 'must hold rows (a list of records)');
  const preview = isRecord(v.preview)
    ? { shown: num(v.preview.shown), total: num(v.preview.total_available) ?? num(v.preview.total) }
    : null;
  return {
    rows: v.rows.filter(isRecord),
    asOf: text(v.as_of),
    citation: text(v.citation),
    preview,
    matching: num(v.count_total_matching) ?? num(v.total_matching) ?? null,
    stale: v.stale === true ? { ageMs: (num(v.age_seconds) ?? 0) * 1000, reason: text(v.stale_reason) } : null,
  };
}

/** Chart options in the host's names (`max_ttp_months`, `top`, `objectives`, the layout's `width`). */
export function chartOptionsOf(v: unknown): ChartOptions {
  if (!isRecord(v)) return {};
  const objectives = isRecord(v.objectives)
    ? Object.fromEntries(Object.entries(v.objectives).filter(([, w]) => num(w) !== undefined))
    : undefined;
  const width = num(v.width); // the host's layout: legends below under 640 px
  return {
    ...(num(v.max_ttp_months) !== undefined ? { maxTtpMonths: num(v.max_ttp_months) } : {}),
    ...(num(v.top) !== undefined ? { top: num(v.top) } : {}),
    ...(objectives ? { objectives: objectives as Record<string, number> } : {}),
    ...(width !== undefined && width >= 200 ? { width } : {}),
  };
}

export const chartFor = (params: Record<string, unknown>): Promise<VegaLiteSpec> =>
  buildChart(
    typeof params.name === 'string' ? params.name : '',
    chartDataOf(params.data),
    chartOptionsOf(params.options),
  );

/** The text of a Vega or Vega-Lite build: beside the engine bundle (`vendor/`), else from the installed package. */
async function build(file: 'vega.min.js' | 'vega-lite.min.js'): Promise<string> {
  try {
    return await readFile(new URL(`./vendor/${file}`, import.meta.url), 'utf8');
  } catch {
    const pkg = file === 'vega.min.js' ? 'vega/build/vega.min.js' : 'vega-lite/build/vega-lite.min.js';
    return readFile(createRequire(import.meta.url).resolve(pkg), 'utf8');
  }
}

/**
 * A spec as an offline HTML page, an SVG or a PNG drawing (`base64`), or a notebook's static picture (`picture`: the
 * SVG, or a PNG when the SVG is too large). Vega is loaded with the first drawing (./picture.js), not before.
 */
export async function chartFile(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const spec = params.spec;
  if (!isRecord(spec)) throw new ValidationError('spec', 'must be a Vega-Lite specification (an object)');
  if (params.format === 'html')
    return { text: chartPage(spec, { vega: await build('vega.min.js'), vegaLite: await build('vega-lite.min.js') }) };
  if (params.format === 'svg' || params.format === 'png' || params.format === 'picture') {
    const picture = await import('./picture.js');
    if (params.format === 'picture') {
      const max = num(params.max_svg_bytes);
      return picture.chartPicture(spec, max !== undefined && max >= 0 ? max : undefined);
    }
    const { svg } = await picture.chartSvg(spec);
    if (params.format === 'svg') return { text: svg };
    return { base64: Buffer.from(await picture.svgToPng(svg)).toString('base64') };
  }
  throw new ValidationError('format', `must be html, svg, png or picture, got ${JSON.stringify(params.format)}`);
}
