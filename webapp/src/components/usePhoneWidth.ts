// A phone's width: below Mantine's `sm` breakpoint (48em, 768 px), where the shell's menu
// is a drawer (app/shell/ShellLayout) and long lists are stacks of cards (RowCards).
import { useMediaQuery } from '@mantine/hooks';

export const PHONE_QUERY = '(max-width: 48em)';

/** True on a phone's width; false on the first render and wherever media queries are unknown. */
export function usePhoneWidth(): boolean {
  return useMediaQuery(PHONE_QUERY) ?? false;
}
