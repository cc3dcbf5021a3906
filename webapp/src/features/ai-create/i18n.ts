// The AI creation screen's strings live in their own i18next namespace, registered when the
// module loads (so they stay out of the initial bundle).
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/aiCreate.en';
import zh from '@/locales/aiCreate.zh';

export const NS = 'aiCreate';

registerNamespace(NS, zh, en);

export function useAiT() {
  return useTranslation(NS);
}
