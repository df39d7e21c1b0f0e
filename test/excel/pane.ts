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
