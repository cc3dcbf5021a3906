// The date range of the export dialogs (spec 5 "Export", 9): at most 365 days, no earlier
// than 180 days back, nothing in the future. After the first pick, dates that would break a
// rule are disabled; a range that breaks one anyway is emptied with the rule's message. One
// hook for every export dialog (declarations, clearance exceptions).
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { isExportDateDisabled, validateExportRange } from '@/lib/validators';
import { isoToYmd, shanghaiTodayIso, ymdToIso } from '@/lib/dates';

/** A draft whose range is kept as `YYYYMMDD` texts (empty when unset). */
export interface RangeDraft {
  fromDate: string;
  toDate: string;
}

type Range = [string | null, string | null];

export function useExportRange<D extends RangeDraft>(
  draft: D,
  setDraft: Dispatch<SetStateAction<D>>,
) {
  const { t: tg } = useTranslation();
  const [firstPick, setFirstPick] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const setRange = (fromDate: string, toDate: string) =>
    setDraft((d) => ({ ...d, fromDate, toDate }));

  const onChange = ([from, to]: Range) => {
    setError(null);
    if (from && !to) {
      setFirstPick(from);
      setRange(isoToYmd(from), '');
      return;
    }
    setFirstPick(null);
    if (from && to) {
      const problem = validateExportRange([from, to]);
      if (problem) {
        setError(tg(problem));
        setRange('', '');
        return;
      }
    }
    setRange(isoToYmd(from), isoToYmd(to));
  };

  /** Checks the range before sending: false, with the message shown, when it breaks a rule. */
  const check = (): boolean => {
    const problem = validateExportRange([ymdToIso(draft.fromDate), ymdToIso(draft.toDate)]);
    if (problem) {
      setError(tg(problem));
      if (problem === 'validation.dateRangeTooLong') setRange('', '');
      return false;
    }
    setError(null);
    return true;
  };

  /** Spread on a Mantine `DatePickerInput type="range"`. */
  const pickerProps = {
    value: [ymdToIso(draft.fromDate), ymdToIso(draft.toDate)] as Range,
    onChange,
    valueFormat: 'YYYY-MM-DD',
    maxDate: shanghaiTodayIso(),
    excludeDate: (date: string) => isExportDateDisabled(date, firstPick),
    allowSingleDateInRange: true,
    clearable: true,
  };

  return { error, setError, check, pickerProps };
}
