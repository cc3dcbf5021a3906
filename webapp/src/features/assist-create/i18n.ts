// The assisted creation wizard's strings live in their own i18next namespace, registered when the
// module loads (so they stay out of the initial bundle).
import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import en from './locales/en';
import zh from './locales/zh';

export const NS = 'assistCreate';

export function registerAssistCreateStrings(): void {
  if (!i18n.hasResourceBundle('zh', NS)) i18n.addResourceBundle('zh', NS, zh, true, true);
  if (!i18n.hasResourceBundle('en', NS)) i18n.addResourceBundle('en', NS, en, true, true);
}
registerAssistCreateStrings();

export function useAssistT() {
  return useTranslation(NS);
}
