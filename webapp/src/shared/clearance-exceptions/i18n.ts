// The exception screens' strings live in their own i18next namespace, registered when the
// first exception module loads (so they stay out of the initial bundle).
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/exceptions.en';
import zh from '@/locales/exceptions.zh';

export const NS = 'exceptions';

registerNamespace(NS, zh, en);

/** `t` of the exceptions namespace. */
export function useExcT() {
  return useTranslation(NS);
}
