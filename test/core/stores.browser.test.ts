import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic } from '../support/browser.js';

/** The browser store of core's cache (IndexedDB), in Chromium: persists across page loads. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../core/dist/cache');
let browser: Browser;
let web: Awaited<ReturnType<typeof serveStatic>>;
beforeAll(async () => {
  web = await serveStatic([root]);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe('IndexedDbStore in Chromium', () => {
  it('stores, lists by prefix, deletes, and keeps values across reloads', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${web.url}/store.js`);
    // Plain strings: the test runner would rewrite a dynamic import() inside a function.
    const first = await page.evaluate(`(async () => {
      const { IndexedDbStore } = await import('${web.url}/store.js');
      const s = new IndexedDbStore('dchub-test');
      await s.set('dchub:c:a', 'one');
      await s.set('dchub:c:b', 'two');
      await s.set('other', 'x');
      await s.delete('dchub:c:b');
      return { keys: (await s.keys('dchub:c:')).sort(), a: await s.get('dchub:c:a'), b: (await s.get('dchub:c:b')) ?? null };
    })()`);
    expect(first).toEqual({ keys: ['dchub:c:a'], a: 'one', b: null });
    await page.reload();
    const again = await page.evaluate(
      `import('${web.url}/store.js').then(({ IndexedDbStore }) => new IndexedDbStore('dchub-test').get('dchub:c:a'))`,
    );
    expect(again).toBe('one');
    await context.close();
  });
});
