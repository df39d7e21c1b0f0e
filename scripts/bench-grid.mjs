// JupyterLab panel: data arrival → first painted grid of all 5,370 queue rows (canvas DataGrid
// over the panel's TableModel), beside a naive DOM table, in Chromium. Median of 7 runs each.
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { parseParams, QueueFilters } from '../core/dist/index.js';
import { selectQueueSurvivors } from '../sandbox/dist/domain/queue.js';
import { Dataset } from '../sandbox/dist/dataset.js';

export async function benchGrid() {
  mkdirSync('artifacts/.bench', { recursive: true });
  await build({ entryPoints: ['jupyter-extension/bench/grid-entry.ts'], bundle: true, format: 'iife', outfile: 'artifacts/.bench/grid.js', logLevel: 'error' });
  const data = new Dataset('bench-grid');
  const answer = selectQueueSurvivors(data.queue, { ...parseParams(QueueFilters, { status: 'all' }), limit: 100_000 }, 'bench-grid', Date.parse('2026-11-21T12:00:00Z'));
  const text = JSON.stringify(answer);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: 'artifacts/.bench/grid.js' });
    const run = async (kind) => {
      const times = [];
      let rows = 0;
      let inked = 0;
      for (let i = 0; i < 7; i++) {
        const r = await page.evaluate(([k, t]) => window.gridBench[k](t), [kind, text]);
        times.push(r.ms);
        rows = r.rows;
        inked = r.inked;
      }
      times.sort((a, b) => a - b);
      return { median_ms: Math.round(times[3] * 10) / 10, rows, inked };
    };
    const grid = await run('grid');
    const dom = await run('domTable');
    if (!grid.inked) throw new Error('the grid painted nothing');
    return { rows: grid.rows, grid_ms: grid.median_ms, naive_dom_table_ms: dom.median_ms, ratio: Math.round((grid.median_ms / dom.median_ms) * 100) / 100 };
  } finally {
    await browser.close();
  }
}

if (process.argv[1]?.endsWith('bench-grid.mjs')) console.log(JSON.stringify(await benchGrid(), null, 2));
