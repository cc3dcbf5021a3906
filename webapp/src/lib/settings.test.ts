import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, useSettingsStore } from './settings';
import { storage, storageKey } from './storage';

describe('settings', () => {
  it('starts from the spec defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      sidebarOpened: true,
      device: 'desktop',
      size: 'medium',
      age: 18,
    });
  });

  it('changes only existing keys and persists them', () => {
    const { changeSetting } = useSettingsStore.getState();
    changeSetting('size', 'small');
    changeSetting('unknownKey', 1);
    const state = useSettingsStore.getState() as unknown as Record<string, unknown>;
    expect(state.size).toBe('small');
    expect('unknownKey' in state).toBe(false);
    expect(storage.getJson('settings')).toEqual({
      sidebarOpened: true,
      device: 'desktop',
      size: 'small',
      age: 18,
    });
  });

  it('persists the sidebar toggle', () => {
    useSettingsStore.getState().toggleSidebar();
    expect(storage.getJson<{ sidebarOpened: boolean }>('settings')?.sidebarOpened).toBe(false);
  });
});

describe('storage', () => {
  it('prefixes keys with the API host', () => {
    expect(storageKey('token')).toBe(`${window.location.host}-token`);
    storage.set('token', 't');
    expect(window.localStorage.getItem(`${window.location.host}-token`)).toBe('t');
  });

  it('clears the session but keeps preferences', () => {
    storage.set('token', 't');
    storage.set('role', 'ADMIN');
    storage.set('transferAuthorization', 'x');
    storage.set('lang', 'en');
    storage.clearSession();
    expect(storage.get('token')).toBeNull();
    expect(storage.get('role')).toBeNull();
    expect(storage.get('transferAuthorization')).toBeNull();
    expect(storage.get('lang')).toBe('en');
  });
});
