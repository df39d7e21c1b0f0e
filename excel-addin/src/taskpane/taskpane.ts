import { DchubClient } from '@dchub/core';
import { loadSettings, saveSettings } from '../shared/settings';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function init(): Promise<void> {
  const s = await loadSettings();
  $<HTMLInputElement>('baseUrl').value = s.baseUrl;
  // Show that a key is stored without putting it back into the page.
  $<HTMLInputElement>('apiKey').placeholder = s.apiKey ? 'a key is saved (type to replace, clear with a single space)' : $<HTMLInputElement>('apiKey').placeholder;
  $<HTMLFormElement>('settings').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void save();
  });
}

async function save(): Promise<void> {
  const status = $('status');
  const baseUrl = $<HTMLInputElement>('baseUrl').value;
  const keyInput = $<HTMLInputElement>('apiKey').value;
  try {
    new DchubClient({ baseUrl }); // validates the URL
    await saveSettings({ baseUrl, apiKey: keyInput === '' ? undefined : keyInput.trim() === '' ? null : keyInput });
    $<HTMLInputElement>('apiKey').value = '';
    status.textContent = 'Saved. Recalculate DCHUB formulas to use the new settings.';
  } catch (err) {
    status.textContent = err instanceof Error ? err.message : String(err);
  }
}

if (typeof Office !== 'undefined' && Office.onReady) void Office.onReady(() => init());
else void init();
