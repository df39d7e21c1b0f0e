/**
 * The DC Hub task pane (DOM only), in Fluent UI web components: sections as tabs (account and key,
 * formulas, brief sheets and charts, chain wizard, map, cache), each wired by its own module (the
 * *-tab modules, ./auto-refresh-controls, ./visuals). Workbook writes live in ./excel, service calls in ./actions.
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
import { onCellNotes } from '../shared/cell-notes';
import { noteFailure } from '../shared/status';
import { initAccountTab, showSettings } from './account-tab';
import { initAutoRefreshControls } from './auto-refresh-controls';
import { initBriefsTab } from './briefs-tab';
import { initCacheTab } from './cache-tab';
import { initChainTab } from './chain-tab';
import { showFormulas } from './formulas-tab';
import { $, message, say, type Control } from './pane-dom';
import { showStatus } from './status-view';
import { applyOfficeTheme } from './office-theme';
import { initPaneA11y } from './pane-a11y';
import { initVisuals } from './visuals';

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

async function init(): Promise<void> {
  applyOfficeTheme();
  initPaneA11y();
  await showSettings();
  void showFormulas();
  initAccountTab(action);
  initCacheTab(action);
  initBriefsTab(action);
  initAutoRefreshControls();
  initVisuals(action, say);
  initChainTab(action);
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
