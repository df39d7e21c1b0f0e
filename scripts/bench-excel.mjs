// Excel recalculation storm, in Chromium with the built functions bundle: 1,000 SITESCORE cells
// over 200 distinct argument sets, calculated twice, beside a naive one-fetch-per-cell baseline.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startSandbox } from '../sandbox/dist/server.js';

const KEY = 'bench-excel-enterprise';
const roots = ['test/excel', 'excel-addin/dist'];

async function serve() {
  const server = createServer(async (req, res) => {
    const rel = new URL(req.url, 'http://x').pathname.slice(1);
    for (const root of roots) {
      try {
        const body = await readFile(path.join(root, rel));
        res.writeHead(200, { 'Content-Type': rel.endsWith('.html') ? 'text/html' : 'text/javascript' });
        return res.end(body);
      } catch {}
    }
    res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

export async function benchExcel() {
  const sb = await startSandbox({ port: 0, seed: 'bench-excel', now: '2026-11-21T12:00:00Z', keys: `enterprise=${KEY}` });
  const web = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    let requests = 0;
    page.on('request', (r) => r.url().startsWith(sb.url) && requests++);
    const storage = encodeURIComponent(JSON.stringify([['dchub.baseUrl', sb.url], ['dchub.apiKey', KEY]]));
    await page.goto(`${web.url}/harness.html?storage=${storage}`);
    await page.waitForFunction(() => window.__loaded !== undefined);
    const storm = () =>
      page.evaluate(async () => {
        const t0 = performance.now();
        const calls = [];
        for (let i = 0; i < 1000; i++) calls.push(window.__call('SITESCORE', [30 + (i % 200) * 0.05, -100, null, null]));
        await Promise.all(calls);
        return performance.now() - t0;
      });
    const firstMs = await storm();
    const afterFirst = requests;
    const secondMs = await storm();
    const afterSecond = requests - afterFirst;
    requests = 0;
    const naiveMs = await page.evaluate(
      async ([url, key]) => {
        const t0 = performance.now();
        for (let pass = 0; pass < 2; pass++) {
          await Promise.all(Array.from({ length: 1000 }, (_, i) => fetch(`${url}/api/site-score?lat=${30 + (i % 200) * 0.05}&lon=-100`, { headers: { 'X-API-Key': key } }).then((r) => r.json())));
        }
        return performance.now() - t0;
      },
      [sb.url, KEY],
    );
    return {
      cells: 1000,
      distinct: 200,
      first_pass_requests: afterFirst,
      second_pass_requests: afterSecond,
      naive_requests: requests,
      first_pass_ms: Math.round(firstMs),
      second_pass_ms: Math.round(secondMs),
      naive_ms: Math.round(naiveMs),
      met: afterFirst <= 200 && afterSecond === 0,
    };
  } finally {
    await browser.close();
    await web.close();
    await sb.close();
  }
}

if (process.argv[1]?.endsWith('bench-excel.mjs')) console.log(JSON.stringify(await benchExcel(), null, 2));
