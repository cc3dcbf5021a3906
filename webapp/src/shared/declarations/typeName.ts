// A declaration type (`OB` ... `ID`) or class letter (`B` `C` `D`) as the reader names it,
// in the reader's language: the one place every screen turns a type code into words (lists,
// detail headers, titles, filters' options, export dialogs, the upload history). The names
// are the `declarationType` and `declarationClass` texts of the default namespace.
import { useCallback } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DECLARATION_TYPES } from '@/lib/declarations';

export interface TypeNameOptions {
  /** Add what the class holds: "Export class B · personal items". */
  detail?: boolean;
  /** Add the code, where staff need it: "Export class B (OB)". */
  code?: boolean;
}

const CLASSES = ['B', 'C', 'D'];

function isType(code: string): boolean {
  return (DECLARATION_TYPES as readonly string[]).includes(code);
}

/** What a class letter holds ("personal items"), '' for anything else. */
export function declarationClassName(t: TFunction, cls: string): string {
  return CLASSES.includes(cls) ? t(`declarationClass.${cls}`) : '';
}

/**
 * The name of a type code (`OB` -> "Export class B" / "出口 B类"), or of a class letter
 * (`B` -> "B · personal items"). A value that is neither is shown as it came (never hidden),
 * an empty one as ''.
 */
export function declarationTypeName(
  t: TFunction,
  code: string | null | undefined,
  options: TypeNameOptions = {},
): string {
  const value = (code ?? '').trim().toUpperCase();
  if (!value) return '';
  if (CLASSES.includes(value)) return `${value} · ${declarationClassName(t, value)}`;
  if (!isType(value)) return code ?? '';
  let name = t(`declarationType.${value}`);
  if (options.detail) name = `${name} · ${declarationClassName(t, value.slice(1))}`;
  return options.code ? t('declarationTypeWithCode', { name, code: value }) : name;
}

/** `declarationTypeName` bound to the reader's language. */
export function useDeclarationTypeName() {
  const { t } = useTranslation();
  return useCallback(
    (code: string | null | undefined, options?: TypeNameOptions) =>
      declarationTypeName(t, code, options),
    [t],
  );
}
