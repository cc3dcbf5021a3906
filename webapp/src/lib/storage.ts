// Browser storage under keys prefixed with the API host (spec 3, "UI settings"), so two
// deployments served from one origin never read each other's session.
import { apiHost } from '@/config';

export const STORAGE_KEYS = [
  'token',
  'role',
  'userinfo',
  'userPermission',
  'upsId',
  'isB',
  'isEasyClearIdLogin',
  'staffInfo',
  'transferAuthorization',
  'tempToken',
  'preLogout',
  'settings',
  'lang',
  'colorScheme',
  'uploadFileName',
  'uploadFileIds',
] as const;

export type StorageKey = (typeof STORAGE_KEYS)[number];

/** Keys that survive logout: preferences, not identity. */
const PREFERENCE_KEYS: readonly StorageKey[] = ['settings', 'lang', 'colorScheme'];

export function storageKey(key: StorageKey): string {
  return `${apiHost}-${key}`;
}

function backend(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export const storage = {
  get(key: StorageKey): string | null {
    return backend()?.getItem(storageKey(key)) ?? null;
  },
  set(key: StorageKey, value: string): void {
    backend()?.setItem(storageKey(key), value);
  },
  remove(key: StorageKey): void {
    backend()?.removeItem(storageKey(key));
  },
  getJson<T>(key: StorageKey): T | null {
    const raw = storage.get(key);
    if (raw == null || raw === '') return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKey, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
  /** Logout: everything stored except the user's preferences. */
  clearSession(): void {
    for (const key of STORAGE_KEYS) {
      if (!PREFERENCE_KEYS.includes(key)) storage.remove(key);
    }
  },
};

export const getToken = (): string | null => storage.get('token');
export const setToken = (token: string): void => storage.set('token', token);
export const removeToken = (): void => storage.remove('token');
