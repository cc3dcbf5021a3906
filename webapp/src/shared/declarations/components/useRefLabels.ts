import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useReference, type ReferenceRow } from '@/shared/declarations/api/getReference';
import type { RefTable } from '@/shared/declarations/model/fields';
import { isEnglish } from '@/shared/declarations/model/format';

export function refRowLabel(row: ReferenceRow, lang: string | undefined): string {
  const name = isEnglish(lang) ? row.nameEn || row.name : row.name;
  return name ? `${row.code} ${name}` : row.code;
}

/** `code -> "code name"` for one reference table (the code alone until it loads). */
export function useRefLabel(table: RefTable | undefined) {
  const { i18n } = useTranslation();
  const { data } = useReference(table);
  return useCallback(
    (code: string | null | undefined) => {
      if (!code) return '';
      const row = data?.find((r) => r.code === code);
      return row ? refRowLabel(row, i18n.language) : code;
    },
    [data, i18n.language],
  );
}
