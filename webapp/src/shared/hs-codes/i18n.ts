// The HS code input's strings live in their own i18next namespace, registered when the
// module loads.
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/hsCodes.en';
import zh from '@/locales/hsCodes.zh';

export const NS = 'hsCodes';

registerNamespace(NS, zh, en);

export function useHsT() {
  return useTranslation(NS);
}
