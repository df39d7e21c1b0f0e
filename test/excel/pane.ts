import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { ExcelFixture } from './fixture.js';

/**
 * The built task pane in Chromium with an Office.js stand-in (office-standin.js over the workbook
 * model of excel-addin/test/support/excel-mock.ts, bundled here as `ExcelMock`).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** office.js as the pane gets it in the browser suites: the workbook model, then the stand-in. */
export async function officeStandIn(): Promise<string> {
  const mock = await build({
    entryPoints: [path.join(root, 'excel-addin/test/support/excel-mock.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'ExcelMock',
    alias: { 'office-addin-manifest': path.join(here, 'support/office-addin-manifest.js') },
    logLevel: 'error',
  });
  return `${mock.outputFiles[0].text}\n${readFileSync(path.join(here, 'office-standin.js'), 'utf8')}`;
}

/** The pane and its console; storage seeded with the sandbox URL. */
export async function openPane(fx: ExcelFixture, officeJs: string, page?: Page) {
  const p = page ?? (await fx.newPage());
  await p.setViewportSize({ width: 360, height: 900 }); // a task pane's width
  const logs: string[] = [];
  p.on('console', (m) => logs.push(m.text()));
  await p.route('https://appsforoffice.microsoft.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: officeJs }),
  );
  if (!page) {
    await p.goto(`${fx.webUrl}/harness.html`); // same origin: seed the add-in's storage first
    await p.evaluate((url) => localStorage.setItem('officeruntime:dchub.baseUrl', url), fx.sb.url);
  }
  await p.goto(`${fx.webUrl}/taskpane.html`);
  await p.locator('fluent-tab#tab-account').waitFor();
  await p.waitForFunction(
    () =>
      (document.getElementById('quotaText')?.textContent ?? '') !== '' &&
      document.querySelectorAll('.dchub-formula').length > 0,
  );
  return { page: p, logs };
}

/** QUEUE's answer in the pane's runtime, spilled at Sheet1!B2 with the formula on its anchor; a cell of it selected. */
export async function spillQueue(p: Page, formula: string, args: unknown[]) {
  return p.evaluate(
    async ([f, a]) => {
      const w = window as any;
      let values: unknown;
      try {
        values = await w.__functions.QUEUE(...a, {
          address: 'Sheet1!B2',
          functionName: 'DCHUB.QUEUE',
          isInValuePreview: false,
        });
      } catch (e: any) {
        throw new Error(`QUEUE: ${e?.code ?? ''} ${e?.message ?? String(e)}`);
      }
      w.__wb.spill('Sheet1', 1, 1, values, f);
      w.__wb.selection = { sheet: w.__wb.sheet('Sheet1'), r: 4, c: 3, h: 1, w: 1 };
      w.__wb.active = w.__wb.sheet('Sheet1');
      return values as unknown[][];
    },
    [formula, args] as const,
  );
}
