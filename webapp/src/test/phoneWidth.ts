// Makes the media queries of a phone's width (components/usePhoneWidth) match, as a
// 390 px browser would; returns the function that restores the desktop answer.
import { PHONE_QUERY } from '@/components/usePhoneWidth';

export function atPhoneWidth(): () => void {
  const previous = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...previous(query),
    matches: query === PHONE_QUERY,
    media: query,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = previous;
  };
}
