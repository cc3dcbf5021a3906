// UI settings of spec 3: sidebar, device, size, age. Persisted under the host-prefixed
// "settings" key; changeSetting only changes keys that already exist.
import { create } from 'zustand';
import { storage } from './storage';

export interface Settings {
  sidebarOpened: boolean;
  device: 'desktop' | 'mobile';
  size: 'small' | 'medium' | 'large';
  age: number;
}

export const DEFAULT_SETTINGS: Settings = {
  sidebarOpened: true,
  device: 'desktop',
  size: 'medium',
  age: 18,
};

interface SettingsState extends Settings {
  changeSetting: (key: string, value: unknown) => void;
  toggleSidebar: () => void;
}

function load(): Settings {
  const saved = storage.getJson<Record<string, unknown>>('settings') ?? {};
  const merged: Settings = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if (key in saved && typeof saved[key] === typeof DEFAULT_SETTINGS[key]) {
      (merged as unknown as Record<string, unknown>)[key] = saved[key];
    }
  }
  return merged;
}

function persist(state: Settings): void {
  const { sidebarOpened, device, size, age } = state;
  storage.setJson('settings', { sidebarOpened, device, size, age });
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  ...load(),
  changeSetting: (key, value) => {
    if (!Object.prototype.hasOwnProperty.call(DEFAULT_SETTINGS, key)) return;
    set({ [key]: value } as Partial<SettingsState>);
    persist(get());
  },
  toggleSidebar: () => {
    set({ sidebarOpened: !get().sidebarOpened });
    persist(get());
  },
}));
