import type { VegaLiteSpec } from './spec.js';

/**
 * A chart as a web page that works offline: the spec and the Vega and Vega-Lite builds inline (no
 * CDN), drawn as SVG with Vega's own tooltips. `scripts` are the two builds' text, which the host
 * reads from where it keeps them.
 */
export function chartPage(spec: VegaLiteSpec, scripts: { vega: string; vegaLite: string }): string {
  const t = (spec.title as { text?: unknown } | undefined)?.text;
  const title = typeof t === 'string' ? t : 'DC Hub chart';
  const description = typeof spec.description === 'string' ? spec.description : title;
  const escape = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  // `</script` inside inline code or data would end the element early.
  const inline = (s: string) => s.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="description" content="${escape(description)}">
<script>${inline(scripts.vega)}</script>
<script>${inline(scripts.vegaLite)}</script>
</head><body style="font-family: sans-serif; margin: 16px">
<div id="chart" role="img" aria-label="${escape(description)}"></div>
<script>
const spec = ${inline(JSON.stringify(spec))};
new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'svg', container: '#chart', hover: true }).runAsync();
</script>
</body></html>
`;
}
