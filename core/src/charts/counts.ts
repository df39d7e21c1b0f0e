import { limitedText } from '../notes.js';
import { QUEUE_LIMIT_MAX } from '../schemas/queue.js';

/**
 * What part of the whole a chart shows, worded once for every host (the Vega-Lite subtitle, Excel's native chart
 * title, the panel's charts): "200 of 1,611 matching projects (the call's limit)", "3 of 308 markets (gated
 * preview)". A whole answer says nothing. A chart that adds its rows up (a total, a median per ISO) also says how to
 * draw the whole: the largest limit, a narrower filter, or one ISO at a time.
 */

const fmt = (n: number) => n.toLocaleString('en-US');

/** What a chart's context says of the whole (ChartContext's `preview` and `matching`). */
export interface PartFacts {
  preview?: { shown?: number | null; total?: number | null } | null;
  matching?: number | null;
}

/** What each chart's rows are, and, for a chart that adds them up, what it computes of them. */
const KINDS: Readonly<Record<string, { noun: string; sums?: string }>> = {
  queue_map: { noun: 'projects' },
  queue_mix: { noun: 'projects', sums: 'Queued MW' },
  queue_time_to_power: { noun: 'projects', sums: 'Medians' },
  leaderboard: { noun: 'markets' },
  markets_map: { noun: 'markets' },
  market_quadrant: { noun: 'markets' },
  market_time_to_power: { noun: 'markets' },
  ranking: { noun: 'candidates' },
  site_score: { noun: 'records' },
};

/** The part an answer's rows are of the whole: by a preview, or by the call's limit; undefined when whole. */
export function partOf(
  ctx: PartFacts,
  rows: number,
): { shown: number; total?: number; by: 'preview' | 'limit' } | undefined {
  const p = ctx.preview;
  if (p) {
    const shown = p.shown ?? rows;
    if (p.total == null) return { shown, by: 'preview' };
    return p.total > shown ? { shown, total: p.total, by: 'preview' } : undefined;
  }
  const m = ctx.matching;
  return m != null && m > rows ? { shown: rows, total: m, by: 'limit' } : undefined;
}

/**
 * How to draw every matching row when the call's limit cut them (the refined queue's largest limit is 1,000), in
 * lines short enough not to widen the chart.
 */
function wholeHint(sums: string, shown: number, total: number): string[] {
  const only = `${sums} of these ${fmt(shown)} only.`;
  if (shown < QUEUE_LIMIT_MAX && total <= QUEUE_LIMIT_MAX)
    return [`${only} Ask again with limit=${QUEUE_LIMIT_MAX} to draw all ${fmt(total)}.`];
  return [
    `${only} For all ${fmt(total)} (more than the largest limit, ${fmt(QUEUE_LIMIT_MAX)}):`,
    'narrow the filter, or ask one ISO at a time and draw the rows together.',
  ];
}

/**
 * The subtitle lines that say what part of the whole a chart shows (none for a whole answer): "200 of 1,611 matching
 * projects (the call's limit)", then for a total how to draw the whole.
 */
export function countLines(chart: string, ctx: PartFacts, rows: number): string[] {
  const part = partOf(ctx, rows);
  if (!part) return [];
  const kind = KINDS[chart] ?? { noun: 'rows' };
  if (part.by === 'preview') {
    const of = part.total != null ? ` of ${fmt(part.total)}` : '';
    const line = `${fmt(part.shown)}${of} ${kind.noun} (gated preview)`;
    return kind.sums
      ? [line, `${kind.sums} of the preview's rows only: the whole needs a plan that opens it.`]
      : [line];
  }
  const line = limitedText(part.shown, part.total!, kind.noun);
  return kind.sums ? [line, ...wholeHint(kind.sums, part.shown, part.total!)] : [line];
}

/** A chart's subtitle: the count lines first, then the chart's own line; one string, several, or none. */
export function subtitleOf(counts: readonly string[], own?: string): string | string[] | undefined {
  const lines = [...counts, ...(own ? [own] : [])];
  return lines.length > 1 ? lines : lines[0];
}
