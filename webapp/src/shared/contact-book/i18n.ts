// The contact book's strings, in their own i18next namespace.
import { useTranslation } from 'react-i18next';
import { registerNamespace } from '@/lib/i18n';
import en from '@/locales/contactBook.en';
import zh from '@/locales/contactBook.zh';

export const NS = 'contactBook';

registerNamespace(NS, zh, en);

export function useContactT() {
  return useTranslation(NS);
}
