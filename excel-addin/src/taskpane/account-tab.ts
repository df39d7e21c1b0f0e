/** The Account tab: the connection settings (base URL, key) and the free key's claim. */
import { DchubClient, claimKey, restDailyRequests } from '@dchub/core';
import { resetServiceClient } from '../functions/service';
import { loadSettings, saveSettings } from '../shared/settings';
import { $, input, type Action, type Control } from './pane-dom';
import { showStatus } from './status-view';

const KEY_PLACEHOLDER = `optional: keyless allows about ${restDailyRequests('anonymous')} calls a day`;

/** The stored settings in the form (the Cache tab's switches too); the key itself never. */
export async function showSettings(): Promise<void> {
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

/** Wires the tab's buttons. */
export function initAccountTab(action: Action): void {
  action('save', 'status', save);
  action('forgetKey', 'status', forgetKey);
  action('claim', 'status', claim);
  action('checkAccount', 'status', async () => {
    await showStatus(true);
    return '';
  });
}
