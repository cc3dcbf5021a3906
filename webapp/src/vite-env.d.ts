/// <reference types="vite/client" />

declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** Base address of the Clearway API; empty means same origin (the binary serves the app). */
  readonly VITE_API_BASE?: string;
  readonly VITE_CONTACT_SHANGHAI_NAME?: string;
  readonly VITE_CONTACT_SHANGHAI_EMAIL?: string;
  readonly VITE_CONTACT_ZHENGZHOU_NAME?: string;
  readonly VITE_CONTACT_ZHENGZHOU_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
