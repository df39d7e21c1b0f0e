import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { launchChromium, serveStatic } from '../support/browser.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../excel-addin/dist');

export type CallResult = { value?: any; error?: { code: string; message: string; isCFError?: boolean } };

export interface Harness {
  page: Page;
  /** Requests this page sent to the sandbox so far. */
  requests: () => number;
}

/**
 * A sandbox, a static server for the built add-in and harness.html (a stand-in for Excel's
 * CustomFunctions runtime and OfficeRuntime.storage), and Chromium.
 */
export class ExcelFixture {
  sb!: RunningSandbox;
  webUrl!: string;
  #closeWeb!: () => Promise<void>;
  #browser!: Browser;

  async start(opts: { seed: string; keys: Record<string, string> }): Promise<this> {
    this.sb = await startSandbox({
      port: 0,
      seed: opts.seed,
      now: '2026-11-21T12:00:00Z',
      keys: Object.entries(opts.keys).map(([t, k]) => `${t}=${k}`).join(','),
      controls: true,
    });
    const web = await serveStatic([here, dist]);
    this.webUrl = web.url;
    this.#closeWeb = web.close;
    this.#browser = await launchChromium();
    return this;
  }

  async stop(): Promise<void> {
    await this.#browser?.close();
    await this.#closeWeb?.();
    await this.sb?.close();
  }

  /** A fresh page running the functions bundle, with the add-in's settings (URL, key) stored. */
  async harness(key?: string, baseUrl = this.sb.url): Promise<Harness> {
    const page = await this.#browser.newPage();
    let n = 0;
    page.on('request', (r) => {
      if (r.url().startsWith(this.sb.url)) n++;
    });
    const settings: Array<[string, string]> = [['dchub.baseUrl', baseUrl]];
    if (key) settings.push(['dchub.apiKey', key]);
    await page.goto(`${this.webUrl}/harness.html?storage=${encodeURIComponent(JSON.stringify(settings))}`);
    await page.waitForFunction(() => Object.keys((window as any).__registered).length >= 20);
    return { page, requests: () => n };
  }

  /** The sandbox's own JSON answer, for comparison. */
  async api(p: string, key: string): Promise<any> {
    return (await fetch(this.sb.url + p, { headers: { 'X-API-Key': key } })).json();
  }

  control(p: string, body?: unknown, method = 'POST'): Promise<Response> {
    return fetch(this.sb.url + p, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  }
}

/** Calls a registered function as Excel would: every argument, then an invocation. */
export const call = (h: Harness, id: string, args: unknown[], invocation: Record<string, unknown> = {}) =>
  h.page.evaluate(([i, a, inv]) => (window as any).__call(i, a, inv) as Promise<CallResult>, [id, args, invocation] as const);
