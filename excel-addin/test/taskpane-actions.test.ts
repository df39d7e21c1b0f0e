// The pane's actions end to end: an in-process sandbox, a real client, and the office-addin-mock
// workbook of support/excel-mock.ts standing in for Excel.run.
import { DchubClient, fetchBriefsDiff, type ChainProgress, type PagesProgress } from '@dchub/core';
import { startSandbox, type RunningSandbox } from '@dchub/sandbox/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clearCache,
  estimateChain,
  insertBriefs,
  refreshBriefs,
  refreshNow,
  runChainToSheet,
} from '../src/taskpane/actions';
import { CHANGED_FILL } from '../src/taskpane/brief-refresh';
import { BRIEF_SETTINGS_KEY, BRIEF_TABLE_COLUMNS, CHANGED_COLUMN } from '../src/taskpane/brief-sheet';
import { HEADER_ROW } from '../src/taskpane/excel';
import { lastHealth, readStatus, resetHealth } from '../src/shared/status';
import { FakeWorkbook } from './support/excel-mock';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'x',
    now: '2026-11-21T12:00:00Z',
    keys: 'pro=pro-key-1,enterprise=ent-key-1',
    controls: true,
  });
});
afterAll(() => sb?.close());

const client = (apiKey?: string) => new DchubClient({ baseUrl: sb.url, apiKey, retries: 0 });
const col = (name: string) => BRIEF_TABLE_COLUMNS.indexOf(name);
const W = BRIEF_TABLE_COLUMNS.length;

describe('brief sheet: insert from /all.csv, refresh through /diff', () => {
  it('inserts every brief of the tier, then updates only the briefs recomputed overnight', async () => {
    const c = client('ent-key-1');
    const wb = new FakeWorkbook();
    const progress: PagesProgress[] = [];
    const ins = await insertBriefs(c, wb.excel.run, (p) => progress.push(p));
    expect(ins.rows).toBe(232);
    expect(progress.map((p) => `${p.pagesDone}/${p.pagesTotal}`)).toEqual(['1/2', '2/2']);
    const sheet = wb.sheet(ins.sheet)!;
    expect(sheet.value(0, 0)).toMatch(/^Source: DC Hub Power Index \(DCPI\).*CC-BY-4\.0$/);
    expect(sheet.value(1, 0)).toBe(`As of ${ins.asOf}`);
    expect(sheet.row(HEADER_ROW, 0, W)).toEqual([...BRIEF_TABLE_COLUMNS]);
    // A user column beside the table.
    sheet.setValue(HEADER_ROW, W + 1, 'my notes');
    for (let i = 1; i <= 232; i++) sheet.setValue(HEADER_ROW + i, W + 1, `n${i}`);
    const before = Array.from({ length: 232 }, (_, i) => sheet.row(HEADER_ROW + 1 + i, 0, W));

    // Nothing recomputed yet: nothing changes.
    const none = await refreshBriefs(c, wb.excel.run);
    expect(none).toMatchObject({ changed: [], added: [], unchanged: 0, asOf: ins.asOf });

    const moved = await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 86_400 }),
    });
    expect(moved.status).toBe(200);
    const expected = (await fetchBriefsDiff(c, ins.asOf)).briefs;
    expect(expected.length).toBeGreaterThan(0);

    const r = await refreshBriefs(c, wb.excel.run);
    expect(r.changed.sort()).toEqual(expected.map((b) => b.slug).sort());
    expect(r.added).toEqual([]);
    expect(r.asOf > ins.asOf).toBe(true);
    const changed = new Set(r.changed);
    for (let i = 0; i < 232; i++) {
      const y = HEADER_ROW + 1 + i;
      const slug = String(sheet.value(y, 0));
      expect(sheet.value(y, W + 1)).toBe(`n${i + 1}`);
      if (changed.has(slug)) {
        expect(String(sheet.value(y, col('computed_at'))) > ins.asOf).toBe(true);
        expect(sheet.value(y, col(CHANGED_COLUMN))).toMatch(/^changed /);
        expect(sheet.cell(y, 0).fill).toBe(CHANGED_FILL);
      } else {
        expect(sheet.row(y, 0, W)).toEqual(before[i]);
        expect(sheet.cell(y, 0).fill).toBeUndefined();
      }
    }
    expect(sheet.value(1, 0)).toBe(`As of ${r.asOf}`);
    expect(JSON.parse(String(wb.settings.get(BRIEF_SETTINGS_KEY)))[0].asOf).toBe(r.asOf);
    expect(JSON.stringify([...wb.settings.values()])).not.toContain('ent-key-1');
  });
});

describe('chain wizard', () => {
  it('estimates the calls, runs with progress and writes the ranked table on a new sheet', async () => {
    const c = client('pro-key-1');
    const plan = { filters: { min_mw: 50 }, objectives: { overall_score: 1, fiber_km: -1 }, top_k: 3, maxSites: 4 };
    const cost = await estimateChain(c, plan);
    expect(cost).toMatchObject({ worstCase: 6, affordable: true });
    const steps: ChainProgress['step'][] = [];
    const wb = new FakeWorkbook();
    const r = await runChainToSheet(c, plan, (p) => steps.push(p.step), wb.excel.run);
    expect(steps[0]).toBe('queue');
    expect(steps).toContain('score');
    expect(steps.slice(-2)).toEqual(['rank', 'done']);
    expect(r.callsSpent).toBeLessThanOrEqual(cost.worstCase);
    expect(r.rows).toBeGreaterThan(0);
    expect(r.rows).toBeLessThanOrEqual(3);
    const sheet = wb.sheet(r.sheet)!;
    expect(sheet.value(0, 0)).toMatch(/^Source: /);
    expect(sheet.value(1, 0)).toMatch(/^Chain: \d+ sites scored, \d+ calls spent/);
    expect(sheet.row(HEADER_ROW, 0, 3)).toEqual(['rank', 'id', 'objective_score']);
    expect(sheet.value(HEADER_ROW + 1, 0)).toBe(1);
    expect(wb.tables.map((t) => t.name)).toEqual(['DCHubRanking']);
  });
});

describe('cache controls and status', () => {
  it('refresh now clears the cached answers and recalculates; clear cache empties it', async () => {
    const c = client('pro-key-1');
    await c.getJson('/api/v1/market-brief/all', (await import('@dchub/core')).MarketBriefAll);
    expect(await c.cache!.count()).toBeGreaterThan(0);
    const wb = new FakeWorkbook();
    expect(await refreshNow(c, wb.excel.run)).toBeGreaterThan(0);
    expect(wb.calculations).toEqual(['Full']);
    expect(await c.cache!.count()).toBe(0);
    expect(await clearCache(c)).toBe(0);
  });

  it('reads tier and quota from the ledger, and the account from whoami when keyed', async () => {
    resetHealth();
    const c = client('pro-key-1');
    const st = await readStatus(c, { account: true });
    expect(st.keyed).toBe(true);
    expect(st.tier.toLowerCase()).toBe('pro');
    expect(st.limit).toBeGreaterThan(10);
    expect(st.account && 'name' in st.account).toBe(true);
    expect(st.warning).toBe('');
    const anon = await readStatus(client(), { account: true });
    expect(anon).toMatchObject({ keyed: false, tier: 'anonymous', limit: 10, account: undefined });
  });

  it('says when the service cannot be reached', async () => {
    resetHealth();
    const dead = new DchubClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
    await expect(insertBriefs(dead, new FakeWorkbook().excel.run)).rejects.toThrow(/cannot reach/);
    expect(lastHealth()).toMatchObject({ ok: false, what: 'brief CSV' });
    const st = await readStatus(dead);
    expect(st.warning).toMatch(/^Last call failed at \d\d:\d\d UTC \(brief CSV\)/);
  });
});
