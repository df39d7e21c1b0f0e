// Browser entry for `npm run bench`: time from data arrival to the first painted grid, for the
// panel's canvas DataGrid over its own DataModel, beside a naive DOM <table>.
// Painting is forced synchronously (Lumino messages; layout for the table) rather than waiting
// for animation frames, which a headless browser throttles.
import { queueTable, type QueueResultT } from '@dchub/core';
import { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
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
  const canvas = g.node.querySelector('canvas') as HTMLCanvasElement | null;
  const ctx = canvas?.getContext('2d');
  if (!canvas || !ctx || !canvas.width) return 0;
  const data = ctx.getImageData(0, 0, Math.min(400, canvas.width), Math.min(200, canvas.height)).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i + 3] !== 0 && (data[i] < 200 || data[i + 1] < 200)) n++;
  return n;
}

/** The panel's grid exists before data arrives (as in the panel): build and show it empty first. */
async function grid(text: string): Promise<{ ms: number; rows: number; inked: number }> {
  const el = host();
  const g = new DataGrid();
  g.node.style.cssText = 'position:absolute;inset:0';
  const model = new TableModel();
  g.dataModel = model;
  Widget.attach(g, el);
  MessageLoop.sendMessage(g, Widget.ResizeMessage.UnknownSize);
  MessageLoop.flush();
  const t0 = performance.now();
  model.setTable(queueTable(JSON.parse(text) as QueueResultT));
  MessageLoop.sendMessage(g, Widget.Msg.UpdateRequest);
  MessageLoop.flush();
  const ms = performance.now() - t0;
  return { ms, rows: g.dataModel!.rowCount('body'), inked: inkedPixels(g) };
}

/** The naive baseline: the same rows as a DOM table in an existing container. */
async function domTable(text: string): Promise<{ ms: number; rows: number; inked: number }> {
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
  return { ms, rows: el.querySelectorAll('tr').length - 1, inked: 1 };
}

(window as unknown as { gridBench: unknown }).gridBench = { grid, domTable };
