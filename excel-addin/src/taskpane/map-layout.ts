/**
 * A chart of core laid out for a task pane (about 340 px wide): the views as wide as the pane, a
 * map's height in proportion, the footer's lines wrapped, the legends under the chart. Only the
 * layout changes: every mark, every footer word and the data stay as core built them.
 */
import type { VegaLiteSpec } from '@dchub/core/charts';

/** Words of `text` in lines of at most `max` characters (a longer word stands alone). */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The footer view (text lines under the chart) with its lines wrapped to the pane: every word kept, none cut. */
function wrapFooter(v: VegaLiteSpec, width: number): VegaLiteSpec {
  const values = (v.data as { values?: Array<{ text?: unknown }> } | undefined)?.values;
  if ((v.mark as { type?: string } | undefined)?.type !== 'text' || !Array.isArray(values)) return v;
  const lines = values.flatMap((d) => wrapText(typeof d.text === 'string' ? d.text : '', Math.floor(width / 5.6))); // 10 px text: about 5.6 px a character
  return { ...v, data: { values: lines.map((text, i) => ({ i, text })) }, height: 14 * lines.length };
}

/**
 * The spec laid out for a task pane: the views as wide as the pane (a map's height in proportion),
 * the footer's lines wrapped, the legends under the map in one column each. Nothing drawn changes.
 */
export function fitToPane(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  const views = (spec.vconcat as VegaLiteSpec[] | undefined) ?? [];
  const fit = (v: VegaLiteSpec): VegaLiteSpec => {
    if (typeof v.width !== 'number' || v.width <= width) return wrapFooter(v, width);
    const scale = width / v.width;
    return wrapFooter(
      {
        ...v,
        width,
        ...(typeof v.height === 'number' && v.projection ? { height: Math.round(v.height * scale) } : {}),
      },
      width,
    );
  };
  const config = (spec.config ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    vconcat: views.map(fit),
    config: {
      ...config,
      legend: { ...((config.legend as object) ?? {}), orient: 'bottom', direction: 'vertical', columns: 1 },
    },
  };
}
