/**
 * The Cache tab: refresh and clear the cache, whether formulas answer from wider cached answers
 * (the derive mode), and dates as Excel dates or text.
 */
import { deriveModeOf, parseDeriveMode } from '@dchub/core';
import { resetServiceClient, serviceClient } from '../functions/service';
import { loadSettings, saveSettings } from '../shared/settings';
import { clearCache, refreshNow } from './actions';
import { $, message, say, type Action, type Control } from './pane-dom';

const DERIVE_TEXT = {
  widen: 'widen (a question the cache cannot answer asks for its wider list once)',
  exact: 'exact (cached wider answers serve; otherwise each formula asks exactly)',
  off: 'off (every formula asks its own question)',
} as const;

/** What is in force: the setting, or the default of the caller's plan (widen up to Developer, exact from Pro). */
export async function showDerive(): Promise<void> {
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

async function setDates(): Promise<string> {
  const dates = $<Control>('datesAsText').checked ? 'text' : 'serial';
  await saveSettings({ dates });
  resetServiceClient();
  return dates === 'text'
    ? 'Dates come back as ISO text after "Refresh now".'
    : 'Dates come back as Excel dates after "Refresh now".';
}

/** Wires the tab's switches and buttons. */
export function initCacheTab(action: Action): void {
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
  action(
    'refreshNow',
    'cacheStatus',
    async () => `Cleared ${await refreshNow(await serviceClient())} answers; Excel is recalculating.`,
  );
  action('clearCache', 'cacheStatus', async () => `Cleared ${await clearCache(await serviceClient())} cached answers.`);
}
