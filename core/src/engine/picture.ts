import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { VegaLiteSpec } from '../charts/index.js';

/**
 * A chart as a static picture, drawn by core's own Vega (headless, no browser): an SVG, or a PNG rasterized by
 * resvg (WebAssembly: no native build, the same on every platform) with a font carried beside the bundle, so that
 * the text is drawn the same where no font is installed. Loaded only when a chart is drawn: the engine imports this
 * module on the first picture, and Vega, Vega-Lite and resvg with it.
 */

/**
 * Over this many bytes, a notebook's static picture is a PNG rather than an SVG. An SVG grows with every mark, a PNG
 * with the picture's size: a queue map's state outlines alone are 231 KB of SVG, with 1,000 projects 659 KB, while its
 * PNG is 210 KB (at the chart's size). Every other chart is far under (10–40 KB).
 */
export const SVG_MAX_BYTES = 256 * 1024;
/** A saved PNG is drawn at twice the chart's size, sharp on high-density screens. */
export const PNG_SCALE = 2;
/** A notebook's PNG picture is drawn at the chart's size: a saved notebook stays small (twice the size doubles it). */
export const PICTURE_PNG_SCALE = 1;
const FONT_FAMILY = 'DejaVu Sans';

/**
 * A file carried in the engine bundle's `vendor/` (this module is the bundle's entry or one of its `chunks/`), else
 * from the installed package (in the repository).
 */
async function vendored(file: string, pkgPath: string): Promise<Buffer> {
  for (const dir of ['./vendor/', '../vendor/']) {
    try {
      return await readFile(new URL(`${dir}${file}`, import.meta.url));
    } catch {
      // not there: the next place
    }
  }
  return readFile(createRequire(import.meta.url).resolve(pkgPath));
}

/** A module's exports, whether bundled (a CommonJS build arrives as a default export) or not. */
const exportsOf = <T extends object>(m: T, key: string): T => (key in m ? m : (m as unknown as { default: T }).default);

/** The chart drawn by Vega as SVG text, and its size in pixels. */
export async function chartSvg(spec: VegaLiteSpec): Promise<{ svg: string; width: number; height: number }> {
  const [vegaModule, vegaLiteModule] = await Promise.all([import('vega'), import('vega-lite')]);
  const vega = exportsOf(vegaModule, 'View');
  const vegaLite = exportsOf(vegaLiteModule, 'compile');
  const view = new vega.View(vega.parse(vegaLite.compile(spec as never).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const size = /<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"/.exec(svg);
    return { svg, width: Number(size?.[1] ?? 0), height: Number(size?.[2] ?? 0) };
  } finally {
    view.finalize();
  }
}

let resvg: Promise<typeof import('@resvg/resvg-wasm')> | undefined;
let font: Promise<Buffer> | undefined;

/** resvg, its WebAssembly initialized once per engine. */
function loadResvg(): Promise<typeof import('@resvg/resvg-wasm')> {
  resvg ??= (async () => {
    const mod = await import('@resvg/resvg-wasm');
    await mod.initWasm(await vendored('resvg.wasm', '@resvg/resvg-wasm/index_bg.wasm'));
    return mod;
  })();
  return resvg;
}

/** An SVG rasterized as PNG at `scale`, its text in the carried font (Vega's sans-serif). */
export async function svgToPng(svg: string, scale = PNG_SCALE): Promise<Uint8Array> {
  const { Resvg } = await loadResvg();
  font ??= vendored('DejaVuSans.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const r = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: '#ffffff',
    font: { fontBuffers: [new Uint8Array(await font)], defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  });
  try {
    const image = r.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    r.free();
  }
}

/** A notebook's static picture: the SVG, or a PNG when the SVG is over SVG_MAX_BYTES; its size as shown. */
export type Picture =
  | { mime: 'image/svg+xml'; text: string; width: number; height: number }
  | { mime: 'image/png'; base64: string; width: number; height: number };

export async function chartPicture(spec: VegaLiteSpec, maxSvgBytes = SVG_MAX_BYTES): Promise<Picture> {
  const { svg, width, height } = await chartSvg(spec);
  if (Buffer.byteLength(svg) <= maxSvgBytes) return { mime: 'image/svg+xml', text: svg, width, height };
  const png = await svgToPng(svg, PICTURE_PNG_SCALE);
  return { mime: 'image/png', base64: Buffer.from(png).toString('base64'), width, height };
}
