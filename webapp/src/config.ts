// Build-time configuration, read once from import.meta.env (see .env.sample).

export interface ExportContact {
  /** i18n key of the port name. */
  portKey: 'contact.shanghai' | 'contact.zhengzhou';
  name: string;
  email: string;
}

const env = import.meta.env;

/** Empty string: same origin. Otherwise e.g. "https://clearway.example.com". */
export const apiBase: string = (env.VITE_API_BASE ?? '').replace(/\/+$/, '');

/** Host the storage keys are prefixed with (spec 3, "UI settings"). */
export const apiHost: string = (() => {
  if (apiBase) {
    try {
      return new URL(apiBase).host;
    } catch {
      return apiBase;
    }
  }
  return typeof window !== 'undefined' ? window.location.host : 'localhost';
})();

export const appVersion: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'v1.7.0';

export const buildMode: string = env.MODE;

/** Request timeout of spec 7. */
export const requestTimeoutMs = 1_200_000;

export const exportContacts: ExportContact[] = [
  {
    portKey: 'contact.shanghai',
    name: env.VITE_CONTACT_SHANGHAI_NAME ?? 'Shanghai export desk',
    email: env.VITE_CONTACT_SHANGHAI_EMAIL ?? 'export-sha@example.com',
  },
  {
    portKey: 'contact.zhengzhou',
    name: env.VITE_CONTACT_ZHENGZHOU_NAME ?? 'Zhengzhou export desk',
    email: env.VITE_CONTACT_ZHENGZHOU_EMAIL ?? 'export-cgo@example.com',
  },
];
