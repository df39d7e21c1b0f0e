// Browser entry for `npm run bench`: the panel's grid from data arrival to first paint, split into
// what we own (parse, shape, model, painting the visible cells into the grid's buffer) and the
// browser's blit (DataGrid's drawImage of that buffer onto the visible canvas, which headless
// software rendering makes slow); then sorting and filtering as a user feels them.
// Painting is forced synchronously (Lumino messages) rather than waiting for animation frames,
// which a headless browser throttles.
import { queueTable, type QueueResultT } from '@dchub/core';
import { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { TableGrid } from '../src/grid';
import { lazyQueueTable } from '../src/lazyTable';
import { TableModel } from '../src/tableModel';

function host(): HTMLElement {
  document.body.innerHTML = '';
  const el = document.createElement('div');
  el.style.cssText = 'position:absolute;left:0;top:0;width:1000px;height:700px;overflow:auto';
  document.body.appendChild(el);
  return el;
}

/** Pixels of the grid's canvas that are not background: proof that cells were painted. */
function inkedPixels(g: DataGrid): number {
  const canvas = g.node.querySelector('canvas');
  const ctx = canvas?.getContext('2d');
  if (!canvas || !ctx || !canvas.width) return 0;
  const data = ctx.getImageData(0, 0, Math.min(400, canvas.width), Math.min(200, canvas.height)).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i + 3] !== 0 && (data[i] < 200 || data[i + 1] < 200)) n++;
  return n;
}

/**
 * Times the browser's canvas work while `work` runs: every CanvasRenderingContext2D method call
 * and font/style assignment (rasterizing text and rectangles, under headless software rendering)
 * and, within it, the drawImage of the grid's buffer onto the visible canvas (the blit). What is
 * left is JavaScript: ours and Lumino's.
 */
function withCanvasTimer<T>(work: () => T): { result: T; canvasMs: number; blitMs: number } {
  const proto = CanvasRenderingContext2D.prototype as unknown as Record<string, unknown>;
  const restore: Array<() => void> = [];
  let canvasMs = 0;
  let blitMs = 0;
  let depth = 0;
  for (const name of Object.getOwnPropertyNames(CanvasRenderingContext2D.prototype)) {
    const desc = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, name);
    if (!desc || name === 'constructor') continue;
    const timed = <F extends (...a: unknown[]) => unknown>(f: F, blit: boolean): F =>
      function (this: unknown, ...args: unknown[]) {
        if (depth) return f.apply(this, args);
        depth++;
        const t = performance.now();
        try {
          return f.apply(this, args);
        } finally {
          const dt = performance.now() - t;
          canvasMs += dt;
          if (blit) blitMs += dt;
          depth--;
        }
      } as F;
    if (typeof desc.value === 'function') {
      Object.defineProperty(proto, name, { ...desc, value: timed(desc.value, name === 'drawImage') });
      restore.push(() => Object.defineProperty(proto, name, desc));
    } else if (desc.set) {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- timed() calls it on the receiver
      Object.defineProperty(proto, name, { ...desc, set: timed(desc.set as (...a: unknown[]) => unknown, false) });
      restore.push(() => Object.defineProperty(proto, name, desc));
    }
  }
  try {
    return { result: work(), canvasMs, blitMs };
  } finally {
    for (const r of restore) r();
  }
}

function paint(g: DataGrid): void {
  MessageLoop.sendMessage(g, Widget.Msg.UpdateRequest);
  MessageLoop.flush();
}

/** The panel's grid exists before data arrives (as in the panel): build and show it empty first. */
function emptyGrid(): { g: TableGrid; model: TableModel } {
  const el = host();
  // The panel's grid: its renderers (number alignment, verdict colours, changed rows) and column fitting.
  const model = new TableModel(undefined, { keyColumn: 'queue_id' });
  const g = new TableGrid(model, { className: 'bench-grid', verdictColumn: 'verdict' });
  g.node.style.cssText = 'position:absolute;inset:0';
  Widget.attach(g, el);
  MessageLoop.sendMessage(g, Widget.ResizeMessage.UnknownSize);
  MessageLoop.flush();
  return { g, model };
}

export interface GridRun {
  rows: number;
  parse_ms: number;
  shape_ms: number;
  model_ms: number;
  /** JavaScript that paints the visible cells (our renderers and Lumino), canvas calls excluded. */
  paint_ms: number;
  ours_ms: number;
  /** Our part without JSON.parse of the answer, which is linear in its size. */
  ours_excl_parse_ms: number;
  /** Time inside the browser's canvas API: rasterizing the cells and the blit. */
  canvas_ms: number;
  /** Of which the drawImage of the buffer onto the visible canvas. */
  blit_ms: number;
  total_ms: number;
  sort_ms: number;
  filter_ms: number;
  inked: number;
}

/** Data arrival (the answer's text) → first painted grid, with the split; then a sort and a filter. */
async function grid(text: string): Promise<GridRun> {
  const { g, model } = emptyGrid();
  const { result, canvasMs, blitMs } = withCanvasTimer(() => {
    const t0 = performance.now();
    const answer = JSON.parse(text) as QueueResultT;
    const t1 = performance.now();
    // The panel's shaping: rows are shaped when painted (or sorted, filtered, exported).
    const table = lazyQueueTable(answer);
    const t2 = performance.now();
    model.setTable(table);
    g.fitColumns();
    const t3 = performance.now();
    paint(g);
    const t4 = performance.now();
    return { parse: t1 - t0, shape: t2 - t1, model: t3 - t2, paintAll: t4 - t3, total: t4 - t0 };
  });
  const inked = inkedPixels(g);
  // A user clicks or types only after the first paint: the browser's idle time in between is theirs too.
  await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }));
  // What a user feels next: a header click sorts by capacity, then a filter narrows the rows.
  const capacity = model.table.columns.indexOf('capacity_mw');
  const sorted = withCanvasTimer(() => {
    const t = performance.now();
    model.toggleSort(capacity);
    paint(g);
    return performance.now() - t;
  });
  const filtered = withCanvasTimer(() => {
    const t = performance.now();
    model.setFilter('gas');
    paint(g);
    return performance.now() - t;
  });
  const rows = model.table.rows.length;
  g.dispose();
  return {
    rows,
    parse_ms: result.parse,
    shape_ms: result.shape,
    model_ms: result.model,
    paint_ms: result.paintAll - canvasMs,
    ours_ms: result.total - canvasMs,
    ours_excl_parse_ms: result.total - canvasMs - result.parse,
    canvas_ms: canvasMs,
    blit_ms: blitMs,
    total_ms: result.total,
    sort_ms: sorted.result - sorted.canvasMs,
    filter_ms: filtered.result - filtered.canvasMs,
    inked
  };
}

/** The naive baseline: the same rows as a DOM table in an existing container. */
function domTable(text: string): { ms: number; rows: number } {
  const el = host();
  void el.scrollHeight;
  const t0 = performance.now();
  const table = queueTable(JSON.parse(text) as QueueResultT);
  const esc = (v: unknown) => String(v).replace(/[&<>]/g, (c) => `&${c === '&' ? 'amp' : c === '<' ? 'lt' : 'gt'};`);
  const head = `<tr>${table.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const body = table.rows.map((r) => `<tr>${r.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`).join('');
  el.innerHTML = `<table>${head}${body}</table>`;
  void el.scrollHeight; // forces style and layout of every row
  const ms = performance.now() - t0;
  return { ms, rows: el.querySelectorAll('tr').length - 1 };
}

(window as unknown as { gridBench: unknown }).gridBench = { grid, domTable };
