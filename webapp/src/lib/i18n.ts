// i18next with Chinese as the default and English switchable; the choice is remembered
// under the host-prefixed "lang" key and drives dayjs and the Accept-Language header.
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en';
import zh from '@/locales/zh';
import { storage } from './storage';

export type Language = 'zh' | 'en';
export const LANGUAGES: readonly Language[] = ['zh', 'en'];

function savedLanguage(): Language {
  const saved = storage.get('lang');
  return saved === 'en' ? 'en' : 'zh';
}

function applyLanguage(lang: Language): void {
  dayjs.locale(lang === 'en' ? 'en' : 'zh-cn');
  if (typeof document !== 'undefined') {
    document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
  }
}

const initial = savedLanguage();
void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: initial,
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyLanguage(initial);

export function setLanguage(lang: Language): void {
  storage.set('lang', lang);
  applyLanguage(lang);
  void i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return i18n.language?.startsWith('en') ? 'en' : 'zh';
}

export default i18n;

/**
 * Registers a screen's own namespace (texts in src/locales/<ns>.<lang>.ts) when its module
 * first loads, so the strings stay out of the initial bundle.
 */
export function registerNamespace(ns: string, zh: object, en: object): void {
  if (!i18n.hasResourceBundle('zh', ns)) i18n.addResourceBundle('zh', ns, zh, true, true);
  if (!i18n.hasResourceBundle('en', ns)) i18n.addResourceBundle('en', ns, en, true, true);
}
