// The declaration screens' strings live in their own i18next namespace, registered when
// the first declaration module loads (so they stay out of the initial bundle).
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/declarations.en';
import zh from '@/locales/declarations.zh';

export const NS = 'declarations';

registerNamespace(NS, zh, en);

/** `t` of the declarations namespace; shared keys with the `translation:` prefix. */
export function useDeclT() {
  return useTranslation(NS);
}
