/* global document, window -- in page.evaluate and waitForFunction: code that runs in the browser */
// The pictures of docs/excel.md (docs/img/excel-*.png), taken from the built add-in in Debian's Chromium with the
// browser suites' stand-in for Office (test/excel: office-standin.js over the workbook model, harness.html over the
// custom-functions runtime model) against a local sandbox on its synthetic data. The stand-in has no grid: a spilled
// QUEUE and a card are the values the functions return, drawn by this script as Excel lays them out (a sheet's
// cells; a card's fields). Needs `npm run build` (core, sandbox, the add-in). Usage: node scripts/screenshots.mjs
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSandbox } from '../sandbox/dist/server.js';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
const root = fileURLToPath(new URL('..', import.meta.url));
const here = (...p) => path.join(root, ...p);
const out = here('docs/img');
const KEY = 'docs-screenshots-pro-0001';

/** The browser suites' helpers (TypeScript) bundled for Node, beside node_modules so their imports resolve. */
async function helpers() {
  const file = here('node_modules/.cache/dchub-screenshots/helpers.mjs');
  await build({
    stdin: {
      contents: `export { launchChromium, serveStatic } from './test/support/browser.ts';
                 export { officeIcons } from './test/excel/office-icons.js';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: file,
    logLevel: 'error',
  });
  return import(pathToFileURL(file).href);
}

/** office.js as the browser suites give it to the pane: the workbook model, then the stand-in. */
async function officeStandIn() {
  const mock = await build({
    entryPoints: [here('excel-addin/test/support/excel-mock.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'ExcelMock',
    alias: { 'office-addin-manifest': here('test/excel/support/office-addin-manifest.js') },
    logLevel: 'error',
  });
  return `${mock.outputFiles[0].text}\n${readFileSync(here('test/excel/office-standin.js'), 'utf8')}`;
}

/** The task pane with the key and the sandbox stored, on one tab; its screenshot. */
async function pane(browser, web, sb, officeJs, tab, name, before = async () => undefined) {
  const page = await browser.newPage({ viewport: { width: 360, height: 760 }, deviceScaleFactor: 2 });
  await page.route('https://appsforoffice.microsoft.com/**', (r) =>
    r.fulfill({ contentType: 'text/javascript', body: officeJs }),
  );
  await page.goto(`${web.url}/harness.html`);
  await page.evaluate(
    ([url, key]) => {
      localStorage.setItem('officeruntime:dchub.baseUrl', url);
      localStorage.setItem('officeruntime:dchub.apiKey', key);
    },
    [sb.url, KEY],
  );
  await page.goto(`${web.url}/taskpane.html`);
  await page.locator('fluent-tab#tab-account').waitFor();
  await page.waitForFunction(() => (document.getElementById('quotaText')?.textContent ?? '') !== '');
  await page.locator(`fluent-tab#${tab}`).click();
  await before(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, name) });
  await page.close();
}

/** A function's value through the runtime model (harness.html), as Excel would call it. */
async function value(browser, web, sb, icons, id, args) {
  const page = await browser.newPage();
  await page.addInitScript((given) => (window.__harness = given), {
    icons,
    storage: [
      ['dchub.baseUrl', sb.url],
      ['dchub.apiKey', KEY],
    ],
  });
  await page.goto(`${web.url}/harness.html?platform=web&cfr=1.5&excelApi=1.19`);
  await page.waitForFunction(() => window.__loaded !== undefined);
  const r = await page.evaluate(([i, a]) => window.__call(i, a, {}), [id, args]);
  await page.close();
  if (r.error || r.defects?.length) throw new Error(`${id}: ${JSON.stringify(r.error ?? r.defects)}`);
  return r.value;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const STYLE = `body{margin:0;font:13px "Segoe UI",Arial,sans-serif;background:#fff}
table{border-collapse:collapse}td,th{border:1px solid #d4d4d4;padding:2px 6px;white-space:nowrap;height:18px}
th{background:#f3f3f3;font-weight:normal;color:#444;text-align:center}
.bar{background:#f3f3f3;border-bottom:1px solid #d4d4d4;padding:4px 8px;font-family:Consolas,monospace}
.card{width:330px;margin:12px;border:1px solid #c8c8c8;border-radius:6px;box-shadow:0 4px 12px #0002;padding:12px}
.card h1{font-size:16px;margin:0 0 8px}.card dt{color:#555;font-size:12px}.card dd{margin:0 0 6px}`;

/** The rows a spilled table fills, from cell A1 at the formula, with the sheet's column letters and row numbers. */
function sheetHtml(formula, rows, maxRows) {
  const shown = rows.slice(0, maxRows);
  const width = Math.min(Math.max(...shown.map((r) => r.length)), 9);
  const letters = Array.from({ length: width }, (_, i) => String.fromCharCode(65 + i));
  const cell = (v) => (typeof v === 'object' && v !== null ? (v.basicValue ?? v.text ?? '') : (v ?? ''));
  const body = shown
    .map(
      (r, i) =>
        `<tr><th>${i + 1}</th>${r
          .slice(0, width)
          .map((v) => `<td${typeof cell(v) === 'number' ? ' style="text-align:right"' : ''}>${esc(cell(v))}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<style>${STYLE}</style><div class="bar">A1 &nbsp; fx &nbsp; ${esc(formula)}</div><table><tr><th></th>${letters
    .map((l) => `<th>${l}</th>`)
    .join('')}</tr>${body}</table>`;
}

/** A card as Excel's card view shows it: its text as the title, then each property's name and value. */
function cardHtml(formula, card) {
  const props = Object.entries(card.properties ?? {}).slice(0, 12);
  const shown = (p) => p.basicValue ?? p.text ?? (p.elements ? `${p.elements.length} rows` : '');
  return `<style>${STYLE}</style><div class="bar">A1 &nbsp; fx &nbsp; ${esc(formula)}</div><div class="card"><h1>${esc(
    card.text,
  )}</h1><dl>${props.map(([k, p]) => `<dt>${esc(k)}</dt><dd>${esc(shown(p))}</dd>`).join('')}</dl></div>`;
}

async function picture(browser, html, name, width) {
  const page = await browser.newPage({ viewport: { width, height: 200 }, deviceScaleFactor: 2 });
  await page.setContent(html);
  await page.screenshot({ path: path.join(out, name), fullPage: true });
  await page.close();
}

const { launchChromium, serveStatic, officeIcons } = await helpers();
mkdirSync(out, { recursive: true });
const sb = await startSandbox({ port: 0, seed: 'docs-screenshots', now: '2026-11-21T12:00:00Z', keys: `pro=${KEY}` });
const web = await serveStatic([here('test/excel'), here('excel-addin/dist')]);
const browser = await launchChromium();
try {
  const officeJs = await officeStandIn();
  await pane(browser, web, sb, officeJs, 'tab-account', 'excel-pane.png');
  await pane(browser, web, sb, officeJs, 'tab-briefs', 'excel-insert-chart.png', async (page) => {
    await page.locator('#insertChart').scrollIntoViewIfNeeded();
  });
  const icons = officeIcons();
  const queue = await value(browser, web, sb, icons, 'QUEUE', ['PJM,MISO', 200, 36]);
  await picture(browser, sheetHtml('=DCHUB.QUEUE("PJM,MISO",200,36)', queue, 14), 'excel-queue-spill.png', 900);
  const card = await value(browser, web, sb, icons, 'MARKETCARD', ['dallas']);
  await picture(browser, cardHtml('=DCHUB.MARKETCARD("dallas")', card[0][0]), 'excel-card.png', 380);
  console.log(
    `written: ${['excel-pane', 'excel-insert-chart', 'excel-queue-spill', 'excel-card'].join('.png, ')}.png in docs/img/`,
  );
} finally {
  await browser.close();
  await web.close();
  await sb.close();
}
