import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { launchChromium, serveStatic } from '../support/browser.js';
import { officeIcons } from './office-icons.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../excel-addin/dist');

export { EMPTY, range } from './excel-runtime.js';

/** The requirement sets of the Excel a harness models (Office.context.requirements answers for them). */
export interface ExcelHost {
  customFunctionsRuntime: string;
  excelApi: string;
}
/**
 * The hosts of the card tests: today's Microsoft 365; a 2208–2503 build (cards, no number formats on doubles); one
 * without cards (perpetual Office, iPad, older builds).
 */
export const HOSTS = {
  current: { customFunctionsRuntime: '1.5', excelApi: '1.19' },
  cards116: { customFunctionsRuntime: '1.4', excelApi: '1.16' },
  noCards: { customFunctionsRuntime: '1.3', excelApi: '1.16' },
} satisfies Record<string, ExcelHost>;

/** The sandbox's profiles: the interface spec's shapes, and the real service's shapes and quirks. */
export type Profile = 'spec' | 'real';
/**
 * The profiles every browser suite runs under (both in CI); `DCHUB_EXCEL_PROFILES=real` narrows a
 * local run to one.
 */
export const PROFILES: Profile[] = (process.env.DCHUB_EXCEL_PROFILES ?? 'spec,real')
  .split(',')
  .map((p) => p.trim())
  .filter((p): p is Profile => p === 'spec' || p === 'real');

/** What the cell shows; `defects` lists the rules of Excel's runtime the call broke. */
export type CallResult = { value?: any; error?: { code: string; message: string }; defects?: string[] };

export interface Harness {
  page: Page;
  /** Requests this page sent to the sandbox so far. */
  requests: () => number;
}

/**
 * A sandbox, a static server for the built add-in and harness.html (the strict model of Excel's
 * custom-functions runtime in excel-runtime.js, and OfficeRuntime.storage), and Chromium.
 */
export class ExcelFixture {
  sb!: RunningSandbox;
  profile: Profile = 'spec';
  webUrl!: string;
  #closeWeb!: () => Promise<void>;
  #browser!: Browser;

  /**
   * `csp`: taskpane.html is served under this Content-Security-Policy (a real header, as a deployment would send it).
   */
  async start(opts: { seed: string; keys: Record<string, string>; profile?: Profile; csp?: string }): Promise<this> {
    this.profile = opts.profile ?? 'spec';
    this.sb = await startSandbox({
      profile: this.profile,
      port: 0,
      seed: opts.seed,
      now: '2026-11-21T12:00:00Z',
      keys: Object.entries(opts.keys)
        .map(([t, k]) => `${t}=${k}`)
        .join(','),
      controls: true,
    });
    const csp = opts.csp;
    const web = await serveStatic([here, dist], (rel) =>
      csp && rel === 'taskpane.html' ? { 'Content-Security-Policy': csp } : undefined,
    );
    this.webUrl = web.url;
    this.#closeWeb = () => web.close();
    this.#browser = await launchChromium();
    return this;
  }

  async stop(): Promise<void> {
    await this.#browser?.close();
    await this.#closeWeb?.();
    await this.sb?.close();
  }

  /**
   * A fresh page running the functions bundle, with the add-in's settings (URL, key) stored, for
   * the Excel `host` (today's Microsoft 365 unless given); `persisted`: OfficeRuntime.storage of an
   * earlier harness (a workbook opened again).
   */
  async harness(
    key?: string,
    baseUrl = this.sb.url,
    opts: {
      platform?: 'web' | 'desktop';
      storage?: Record<string, string>;
      host?: ExcelHost;
      persisted?: Array<[string, string]>;
    } = {},
  ): Promise<Harness> {
    const page = await this.#browser.newPage();
    let n = 0;
    page.on('request', (r) => {
      if (r.url().startsWith(this.sb.url)) n++;
    });
    const settings: Array<[string, string]> = [...(opts.persisted ?? []), ['dchub.baseUrl', baseUrl]];
    if (key) settings.push(['dchub.apiKey', key]);
    settings.push(...Object.entries(opts.storage ?? {}));
    await page.addInitScript((given) => ((window as any).__harness = given), {
      icons: officeIcons(),
      storage: settings,
    });
    const host = opts.host ?? HOSTS.current;
    const q = new URLSearchParams({
      platform: opts.platform ?? 'web',
      cfr: host.customFunctionsRuntime,
      excelApi: host.excelApi,
    });
    await page.goto(`${this.webUrl}/harness.html?${q}`);
    await page.waitForFunction(() => (window as any).__loaded !== undefined);
    expect(await page.evaluate(() => (window as any).__loaded), 'functions.js loaded').toBeGreaterThan(0);
    return { page, requests: () => n };
  }

  /** What a harness's OfficeRuntime.storage holds now (to open the workbook again in a new runtime). */
  static persisted(h: Harness): Promise<Array<[string, string]>> {
    return h.page.evaluate(() => [...(window as any).__storage] as Array<[string, string]>);
  }

  /** A plain page of the fixture's browser. */
  newPage(): Promise<Page> {
    return this.#browser.newPage();
  }

  /** The sandbox's own JSON answer, for comparison. */
  async api(p: string, key: string): Promise<any> {
    return (await fetch(this.sb.url + p, { headers: { 'X-API-Key': key } })).json();
  }

  control(p: string, body?: unknown, method = 'POST'): Promise<Response> {
    return fetch(this.sb.url + p, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}

export interface CallOptions {
  isInValuePreview?: boolean;
  cancelAfterMs?: number;
  /** The calling cell (functions declared requiresAddress see it). */
  address?: string;
}

/** Calls a function through the model, as Excel would; any broken rule of Excel's runtime fails the test. */
export async function call(h: Harness, id: string, args: unknown[], opts: CallOptions = {}): Promise<CallResult> {
  const r = await callRaw(h, id, args, opts);
  expect(r.defects ?? [], `${id}(${JSON.stringify(args).slice(1, -1).slice(0, 120)}) breaks Excel's rules`).toEqual([]);
  return r;
}

/** The model's verdict, defects included (for tests that show a defect is caught). */
export const callRaw = (h: Harness, id: string, args: unknown[], opts: CallOptions = {}) =>
  h.page.evaluate(([i, a, o]) => (window as any).__call(i, a, o) as Promise<CallResult>, [id, args, opts] as const);

/** Starts a streaming function through the model and waits for `count` results. */
export const streamResults = (h: Harness, id: string, args: unknown[], count = 1) =>
  h.page.evaluate(
    async ([i, a, n]) => {
      const s = (window as any).__excel.stream(i, a);
      try {
        await s.waitFor(n);
      } finally {
        s.cancel();
      }
      return { results: s.results as CallResult[], defects: s.defects as string[] };
    },
    [id, args, count] as const,
  );
