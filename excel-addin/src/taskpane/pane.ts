/**
 * The DC Hub task pane (DOM only), in Fluent UI web components: sections as tabs (account and key,
 * formulas, brief sheets and charts, chain wizard, map, cache). Workbook writes live in ./excel, service calls in
 * ./actions, the formula list in ./formulas.
 */
import '@fluentui/web-components/accordion.js';
import '@fluentui/web-components/accordion-item.js';
import '@fluentui/web-components/badge.js';
import '@fluentui/web-components/button.js';
import '@fluentui/web-components/field.js';
import '@fluentui/web-components/message-bar.js';
import '@fluentui/web-components/progress-bar.js';
import '@fluentui/web-components/radio.js';
import '@fluentui/web-components/radio-group.js';
import '@fluentui/web-components/switch.js';
import '@fluentui/web-components/tab.js';
import '@fluentui/web-components/tablist.js';
import '@fluentui/web-components/text-input.js';
import { setTheme } from '@fluentui/web-components/theme/set-theme.js';
import { webLightTheme } from '@fluentui/tokens';
import {
  DchubClient,
  claimKey,
  deriveModeOf,
  parseDeriveMode,
  restDailyRequests,
  type ChainCost,
  type PagesProgress,
} from '@dchub/core';
import { objectivesArg } from '../functions/args';
import { resetServiceClient, serviceClient } from '../functions/service';
import { loadSettings, saveSettings } from '../shared/settings';
import { cellNotes, onCellNotes, type CellNote } from '../shared/cell-notes';
import { noteFailure, readStatus } from '../shared/status';
import {
  clearCache,
  estimateChain,
  excelRun,
  insertBriefs,
  refreshBriefs,
  refreshNow,
  runChainToSheet,
  type AnswerNotes,
  type ChainPlan,
} from './actions';
import { insertIntoActiveCell, renderFormulas, type FunctionMeta } from './formulas';
import { initVisuals } from './visuals';
import {
  checkBriefTables,
  readAutoRefresh,
  scheduleAutoRefresh,
  setAutoRefresh,
  type AutoRefreshSettings,
  type CheckResult,
} from './autorefresh';

/** A Fluent text input, switch, button or progress bar: the properties the pane uses. */
type Control = HTMLElement & { value: string; placeholder: string; disabled: boolean; checked: boolean };
type Progress = HTMLElement & { value: number; max: number; validationState: 'success' | 'warning' | 'error' | null };

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<Control>(id);
const say = (id: string, text: string) => {
  $(id).textContent = text;
};
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const KEY_PLACEHOLDER = `optional: keyless allows about ${restDailyRequests('anonymous')} calls a day`;

/** Disables a button while its action runs; the outcome goes to a status line. */
function action(buttonId: string, statusId: string, fn: () => Promise<string>): void {
  const handler = async (ev: Event) => {
    ev.preventDefault();
    const button = $<Control>(buttonId);
    if (button.disabled) return;
    button.disabled = true;
    say(statusId, 'Working…');
    try {
      say(statusId, await fn());
    } catch (err) {
      say(statusId, message(err));
    } finally {
      button.disabled = false;
      void showStatus();
    }
  };
  $(buttonId).addEventListener('click', (ev) => void handler(ev));
}

/** A status line that follows a read of several pages (core's brief readers). */
const pageProgress = (statusId: string) => (p: PagesProgress) => {
  if (p.pagesTotal > 1)
    say(statusId, `Working… page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} briefs)`);
};

async function showSettings(): Promise<void> {
  const s = await loadSettings();
  input('baseUrl').value = s.baseUrl;
  // Show that a key is stored without putting it back into the page.
  input('apiKey').value = '';
  input('apiKey').placeholder = s.apiKey ? 'a key is saved (type a new one to replace it)' : KEY_PLACEHOLDER;
  $<Control>('forgetKey').disabled = !s.apiKey;
  $<Control>('datesAsText').checked = s.dates === 'text';
  // The group's value attribute checks the matching radio when the radios connect; the loop, when they already have.
  $('deriveMode').setAttribute('value', s.derive ?? 'default');
  for (const r of $('deriveMode').querySelectorAll<Control>('fluent-radio'))
    r.checked = r.value === (s.derive ?? 'default');
}

const DERIVE_TEXT = {
  widen: 'widen (a question the cache cannot answer asks for its wider list once)',
  exact: 'exact (cached wider answers serve; otherwise each formula asks exactly)',
  off: 'off (every formula asks its own question)',
} as const;

/** What is in force: the setting, or the default of the caller's plan (widen up to Developer, exact from Pro). */
async function showDerive(): Promise<void> {
  const chosen = (await loadSettings()).derive;
  const mode = await deriveModeOf(await serviceClient());
  say(
    'deriveText',
    `In force: ${DERIVE_TEXT[mode]}${chosen ? '' : ', the default for your plan'}. Cells answered locally cost no call.`,
  );
}

/** The checked choice of the derive radio group. */
const chosenDerive = (): string | undefined =>
  [...$('deriveMode').querySelectorAll<Control>('fluent-radio')].find((r) => r.checked)?.value;

async function setDerive(): Promise<string> {
  const chosen = chosenDerive();
  // Nothing checked, or the stored choice shown again (showSettings): nothing to save.
  if (chosen === undefined || parseDeriveMode(chosen) === (await loadSettings()).derive) return '';
  await saveSettings({ derive: parseDeriveMode(chosen) ?? null });
  resetServiceClient();
  await showDerive();
  return 'Saved: DCHUB formulas use it from their next calculation.';
}

async function showStatus(account = false): Promise<void> {
  try {
    const st = await readStatus(await serviceClient(), { account });
    say(
      'tier',
      `Tier: ${st.tier}${st.confirmed ? '' : ' (assumed until the first answer)'}${st.keyed ? ' · key set' : ' · no key'}`,
    );
    say('tierBadge', st.tier);
    const meter = $<Progress>('quota');
    if (Number.isFinite(st.limit)) {
      meter.max = st.limit;
      meter.value = st.remaining;
      meter.validationState =
        st.remaining <= st.limit * 0.2 ? 'error' : st.remaining <= st.limit * 0.5 ? 'warning' : 'success';
      say(
        'quotaText',
        `${st.remaining} of ${st.limit} calls left today (used ${st.used}); resets ${st.resetsAt.slice(0, 16).replace('T', ' ')} UTC`,
      );
    } else say('quotaText', 'No daily limit applied.');
    if (st.account)
      say(
        'account',
        'error' in st.account
          ? `Service: ${st.account.error}`
          : `Service: ${st.account.name}, ${st.account.remaining} calls remaining`,
      );
    say('cacheText', `${st.cacheEntries} cached answer${st.cacheEntries === 1 ? '' : 's'} on this computer.`);
    void showDerive().catch(() => undefined);
    say('warningText', st.warning);
    $('warning').hidden = !st.warning;
    showCellNotes();
  } catch (err) {
    say('tier', message(err));
  }
}

const CELL_NOTE_LABEL: Record<CellNote['kind'], string> = {
  stale: 'from the cache',
  derived: 'answered locally',
  preview: 'a preview',
  warning: 'with a warning',
};
/** The pane lists at most this many cells; the count covers all. */
const CELLS_LISTED = 50;

/**
 * One-cell answers (SITESCORE, DCPI, PRICE, a field of BRIEF, MARKET or PARCEL) that cannot show it
 * themselves: served stale from the cache, answered locally, from a preview. A table says it in
 * its closing rows instead.
 */
function showCellNotes(): void {
  const notes = cellNotes();
  $('cellNotesSection').hidden = notes.length === 0;
  const counts = (Object.keys(CELL_NOTE_LABEL) as CellNote['kind'][])
    .map((k) => [k, notes.filter((n) => n.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${CELL_NOTE_LABEL[k]}`);
  say(
    'cellNotesText',
    notes.length
      ? `${notes.length} cell${notes.length === 1 ? '' : 's'} whose value does not tell everything: ${counts.join(', ')}. Refresh now (Cache) asks again.`
      : '',
  );
  $('cellNotes').replaceChildren(
    ...notes.slice(0, CELLS_LISTED).map((n) => {
      const li = document.createElement('li');
      li.dataset.kind = n.kind;
      const cell = document.createElement('b');
      cell.textContent = n.cell;
      li.append(cell, ` ${n.formula}: ${n.text}`); // text nodes only: nothing from an answer is markup
      return li;
    }),
  );
}

/** The brief sheet's status, with what the reader left out, whether the answer was stale, and formats not laid. */
const briefNotes = (n: AnswerNotes & { formats?: string; charts?: number }): string =>
  [
    n.charts ? ` ${n.charts} chart${n.charts === 1 ? '' : 's'} brought up to date.` : '',
    n.formats ? ` ${n.formats}` : '',
    n.served ? ` Served ${n.served.replace(/^cached/, 'from the cache,')}.` : '',
    ...n.explanations.map((e) => ` ${e.replace(/\.$/, '')}.`),
    ...n.warnings.slice(0, 5).map((w) => ` ${w}.`),
    n.warnings.length > 5 ? ` … and ${n.warnings.length - 5} more.` : '',
  ].join('');

async function save(): Promise<string> {
  const baseUrl = input('baseUrl').value;
  const keyInput = input('apiKey').value;
  new DchubClient({ baseUrl, cache: false, ledger: false }); // validates the URL
  await saveSettings({ baseUrl, apiKey: keyInput.trim() === '' ? undefined : keyInput });
  resetServiceClient();
  await showSettings();
  if (keyInput.trim()) await showStatus(true);
  return 'Saved. Use "Refresh now" to recalculate DCHUB formulas with the new settings.';
}

async function forgetKey(): Promise<string> {
  await saveSettings({ apiKey: null });
  resetServiceClient();
  await showSettings();
  return 'Key removed from this computer.';
}

async function claim(): Promise<string> {
  const { baseUrl } = await loadSettings();
  const keyless = new DchubClient({ baseUrl, cache: false, ledger: false });
  const r = await claimKey(keyless, {
    client_name: input('claimName').value || 'DC Hub Excel add-in',
    email: input('claimEmail').value || undefined,
    intended_use: 'DC Hub add-in for Excel',
  });
  await saveSettings({ apiKey: r.api_key }); // stored, never shown
  resetServiceClient();
  await showSettings();
  await showStatus(true);
  const daily = r.free_tier_summary?.daily_calls;
  return `${r.reused ? 'Your existing' : 'A new'} ${r.tier} key is saved${daily ? ` (${daily} calls a day)` : ''}.`;
}

function chainPlan(): ChainPlan {
  const num = (id: string) => (input(id).value.trim() === '' ? undefined : Number(input(id).value));
  return {
    filters: { iso: input('chainIso').value || undefined, min_mw: num('chainMinMw'), max_ttp_months: num('chainTtp') },
    objectives: objectivesArg(input('chainObjectives').value),
    top_k: num('chainTopK'),
    maxSites: Math.max(1, Math.min(50, num('chainMaxSites') ?? 8)),
  };
}

const costText = (c: ChainCost) =>
  `Up to ${c.worstCase} calls (1 queue + one score per site + 1 ranking; cached answers are free). ` +
  (c.remaining === undefined ? '' : `${c.remaining} left today. `) +
  (c.affordable ? '' : 'More than you have left: the run scores fewer sites.');

async function estimate(): Promise<string> {
  const c = await estimateChain(await serviceClient(), chainPlan());
  say('chainCost', costText(c));
  $<Control>('chainRun').disabled = c.remaining === 0;
  return '';
}

async function runChainWizard(): Promise<string> {
  const plan = chainPlan();
  const client = await serviceClient();
  say('chainCost', costText(await estimateChain(client, plan)));
  const bar = $<Progress>('chainProgress');
  bar.hidden = false;
  bar.value = 0;
  try {
    const r = await runChainToSheet(client, plan, (p) => {
      const steps = plan.maxSites + 2;
      const done = p.step === 'queue' ? 0 : p.step === 'score' ? 1 + p.done : p.step === 'rank' ? steps - 1 : steps;
      bar.value = done / steps;
      say('chainStatus', p.message);
    });
    return `Wrote ${r.rows} ranked sites to "${r.sheet}" (${r.scored} scored, ${r.callsSpent} calls).`;
  } finally {
    bar.hidden = true;
  }
}

async function setDates(): Promise<string> {
  const dates = $<Control>('datesAsText').checked ? 'text' : 'serial';
  await saveSettings({ dates });
  resetServiceClient();
  return dates === 'text'
    ? 'Dates come back as ISO text after "Refresh now".'
    : 'Dates come back as Excel dates after "Refresh now".';
}

/** The Formulas section, from the build's functions.json. */
async function showFormulas(): Promise<void> {
  try {
    const meta = (await (await fetch('functions.json')).json()) as { functions: FunctionMeta[] };
    renderFormulas($('formulaList'), meta.functions, (formula, id) => {
      say('formulaStatus', 'Working…');
      insertIntoActiveCell(excelRun, formula).then(
        (address) => say('formulaStatus', `Inserted ${id} in ${address}.`),
        (err) => say('formulaStatus', message(err)),
      );
    });
  } catch (err) {
    say('formulaStatus', `Cannot list the formulas: ${message(err)}`);
  }
}

const autoText = (r: CheckResult | Error): string => {
  if (r instanceof Error) return `Automatic refresh failed: ${r.message}`;
  const at = r.at.slice(11, 16);
  const done = r.refreshed.map(
    (t) =>
      `${t.table}: ${t.changed} changed, ${t.added} added${t.warnings.length ? ` (${t.warnings.slice(0, 3).join('; ')})` : ''}`,
  );
  if (done.length) return `Refreshed at ${at} UTC: ${done.join('; ')}.`;
  if (r.skipped) return `Checked at ${at} UTC: ${r.skipped}.`;
  return `Checked at ${at} UTC: nothing can have changed since the last refresh (no call spent).`;
};

let stopAuto: (() => void) | undefined;

/** Starts (or stops) the schedule for this workbook's setting. */
function applyAutoRefresh(s: AutoRefreshSettings): void {
  stopAuto?.();
  stopAuto = undefined;
  if (!s.enabled) return;
  stopAuto = scheduleAutoRefresh(
    s,
    async () => checkBriefTables(await serviceClient(), excelRun),
    (r) => {
      say('autoStatus', autoText(r));
      void showStatus();
    },
  );
}

async function changeAutoRefresh(): Promise<string> {
  const minutes = Number(input('autoEvery').value);
  const next = {
    enabled: $<Control>('autoRefresh').checked,
    everyMinutes: Number.isFinite(minutes) && minutes >= 5 ? minutes : 60,
  };
  await setAutoRefresh(excelRun, next);
  applyAutoRefresh(next);
  return next.enabled
    ? `On for this workbook: on open and every ${next.everyMinutes} minutes.`
    : 'Off for this workbook.';
}

/** The workbook's choice, read when the pane starts (with the document, once opted in). */
async function startAutoRefresh(): Promise<void> {
  if (!(globalThis as { Excel?: unknown }).Excel) return;
  const s = await excelRun(readAutoRefresh);
  $<Control>('autoRefresh').checked = s.enabled;
  input('autoEvery').value = String(s.everyMinutes);
  applyAutoRefresh(s);
}

async function init(): Promise<void> {
  setTheme(webLightTheme);
  await showSettings();
  void showFormulas();
  action('save', 'status', save);
  action('forgetKey', 'status', forgetKey);
  action('claim', 'status', claim);
  $('datesAsText').addEventListener(
    'change',
    () =>
      void setDates().then(
        (t) => say('cacheStatus', t),
        (err) => say('cacheStatus', message(err)),
      ),
  );
  // A click reports several changes (the radio unchecked, the one checked, the group): act once, on the final state.
  let deriveTimer: ReturnType<typeof setTimeout> | undefined;
  $('deriveMode').addEventListener('change', () => {
    clearTimeout(deriveTimer);
    deriveTimer = setTimeout(
      () =>
        void setDerive().then(
          (t) => say('cacheStatus', t),
          (err) => say('cacheStatus', message(err)),
        ),
      0,
    );
  });
  action('checkAccount', 'status', async () => {
    await showStatus(true);
    return '';
  });
  action(
    'refreshNow',
    'cacheStatus',
    async () => `Cleared ${await refreshNow(await serviceClient())} answers; Excel is recalculating.`,
  );
  action('clearCache', 'cacheStatus', async () => `Cleared ${await clearCache(await serviceClient())} cached answers.`);
  action('insertBriefs', 'briefStatus', async () => {
    const r = await insertBriefs(await serviceClient(), excelRun, pageProgress('briefStatus'));
    return `Inserted ${r.rows} briefs on "${r.sheet}" (as of ${r.asOf}).${briefNotes(r)}`;
  });
  action('refreshBriefs', 'briefStatus', async () => {
    const r = await refreshBriefs(await serviceClient(), excelRun, pageProgress('briefStatus'));
    const parts = [`${r.changed.length} changed`, `${r.added.length} added`, `${r.unchanged} unchanged`];
    return `${r.table}: ${parts.join(', ')}; as of ${r.asOf}.${briefNotes(r)}`;
  });
  for (const id of ['autoRefresh', 'autoEvery']) {
    $(id).addEventListener(
      'change',
      () =>
        void changeAutoRefresh().then(
          (t) => say('autoStatus', t),
          (err) => say('autoStatus', message(err)),
        ),
    );
  }
  void startAutoRefresh().catch((err) => say('autoStatus', message(err)));
  initVisuals(action, say);
  action('chainEstimate', 'chainStatus', estimate);
  action('chainRun', 'chainStatus', runChainWizard);
  onCellNotes(() => void showStatus()); // a formula answered: the list, the quota and the stale indicator (no call)
  globalThis.addEventListener?.('online', () => void showStatus());
  globalThis.addEventListener?.('offline', () => void showStatus());
  setInterval(() => void showStatus(), 60_000); // quota and stale answers of the formulas (no call)
  await showStatus();
}

const start = () =>
  init().catch((err) => {
    noteFailure('start', err);
    say('status', message(err));
  });

if (typeof Office !== 'undefined' && Office.onReady) void Office.onReady(() => start());
else void start();
