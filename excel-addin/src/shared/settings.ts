/**
 * Add-in settings (service base URL and API key), kept in OfficeRuntime.storage — shared by the
 * task pane and the functions, and never written into the workbook. Falls back to
 * localStorage where OfficeRuntime is absent (a plain browser page).
 */

declare const DCHUB_DEFAULT_BASE_URL: string;

export const SETTINGS_KEYS = { baseUrl: 'dchub.baseUrl', apiKey: 'dchub.apiKey' } as const;

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
}

export const defaultBaseUrl = (): string =>
  typeof DCHUB_DEFAULT_BASE_URL === 'string' && DCHUB_DEFAULT_BASE_URL ? DCHUB_DEFAULT_BASE_URL : 'https://dchub.cloud';

export async function loadSettings(): Promise<AddinSettings> {
  const s = store();
  const [baseUrl, apiKey] = await Promise.all([s.getItem(SETTINGS_KEYS.baseUrl), s.getItem(SETTINGS_KEYS.apiKey)]);
  return { baseUrl: baseUrl || defaultBaseUrl(), apiKey: apiKey || undefined };
}

export async function saveSettings(next: { baseUrl?: string; apiKey?: string | null }): Promise<void> {
  const s = store();
  if (next.baseUrl !== undefined) await s.setItem(SETTINGS_KEYS.baseUrl, next.baseUrl.trim());
  if (next.apiKey === null || next.apiKey === '') await s.removeItem(SETTINGS_KEYS.apiKey);
  else if (next.apiKey !== undefined) await s.setItem(SETTINGS_KEYS.apiKey, next.apiKey.trim());
}
