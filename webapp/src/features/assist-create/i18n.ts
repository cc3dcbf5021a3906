// The assisted creation wizard's strings live in their own i18next namespace, registered when the
// module loads (so they stay out of the initial bundle).
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/assistCreate.en';
import zh from '@/locales/assistCreate.zh';

export const NS = 'assistCreate';

registerNamespace(NS, zh, en);

export function useAssistT() {
  return useTranslation(NS);
}
