/**
 * Add-in settings (service base URL and API key), kept in OfficeRuntime.storage — shared by the
 * task pane and the functions, and never written into the workbook. Falls back to
 * localStorage where OfficeRuntime is absent (a plain browser page).
 */

import { parseDeriveMode, type DeriveMode } from '@dchub/core';

declare const DCHUB_DEFAULT_BASE_URL: string;

export const SETTINGS_KEYS = {
  baseUrl: 'dchub.baseUrl',
  apiKey: 'dchub.apiKey',
  dates: 'dchub.dates',
  derive: 'dchub.derive',
} as const;

interface KeyValueStore {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

function store(): KeyValueStore {
  const office = (globalThis as { OfficeRuntime?: { storage?: KeyValueStore } }).OfficeRuntime;
  if (office?.storage) return office.storage;
  return {
    getItem: async (k) => globalThis.localStorage?.getItem(k) ?? null,
    setItem: async (k, v) => globalThis.localStorage?.setItem(k, v),
    removeItem: async (k) => globalThis.localStorage?.removeItem(k),
  };
}

export interface AddinSettings {
  baseUrl: string;
  apiKey?: string;
  /** How formulas return dates: Excel serial numbers (default) or ISO 8601 text. */
  dates: 'serial' | 'text';
  /** Answering from cached wider answers (core's derive setting); undefined: the default of the caller's plan. */
  derive?: DeriveMode;
}

export const defaultBaseUrl = (): string =>
  typeof DCHUB_DEFAULT_BASE_URL === 'string' && DCHUB_DEFAULT_BASE_URL ? DCHUB_DEFAULT_BASE_URL : 'https://dchub.cloud';

/**
 * Every formula call asks for the settings: keep them in memory for a moment rather than reading
 * storage per cell in a recalculation storm. saveSettings() forgets them at once (the task pane
 * shares this runtime); another writer is picked up within SETTINGS_TTL_MS.
 */
const SETTINGS_TTL_MS = 2000;
let remembered: { at: number; value: Promise<AddinSettings> } | undefined;

export function loadSettings(): Promise<AddinSettings> {
  const now = Date.now();
  if (!remembered || now - remembered.at > SETTINGS_TTL_MS) {
    const s = store();
    const value = Promise.all([
      s.getItem(SETTINGS_KEYS.baseUrl),
      s.getItem(SETTINGS_KEYS.apiKey),
      s.getItem(SETTINGS_KEYS.dates),
      s.getItem(SETTINGS_KEYS.derive),
    ]).then(([baseUrl, apiKey, dates, derive]): AddinSettings => ({
      baseUrl: baseUrl || defaultBaseUrl(),
      apiKey: apiKey || undefined,
      dates: dates === 'text' ? 'text' : 'serial',
      derive: parseDeriveMode(derive),
    }));
    remembered = { at: now, value };
    value.catch(() => (remembered = undefined));
  }
  return remembered.value;
}

/** `derive: null` goes back to the default of the caller's plan. */
export async function saveSettings(next: {
  baseUrl?: string;
  apiKey?: string | null;
  dates?: 'serial' | 'text';
  derive?: DeriveMode | null;
}): Promise<void> {
  remembered = undefined;
  const s = store();
  if (next.dates !== undefined) await s.setItem(SETTINGS_KEYS.dates, next.dates);
  if (next.derive === null) await s.removeItem(SETTINGS_KEYS.derive);
  else if (next.derive !== undefined) await s.setItem(SETTINGS_KEYS.derive, next.derive);
  if (next.baseUrl !== undefined) await s.setItem(SETTINGS_KEYS.baseUrl, next.baseUrl.trim());
  if (next.apiKey === null || next.apiKey === '') await s.removeItem(SETTINGS_KEYS.apiKey);
  else if (next.apiKey !== undefined) await s.setItem(SETTINGS_KEYS.apiKey, next.apiKey.trim());
  remembered = undefined;
}
