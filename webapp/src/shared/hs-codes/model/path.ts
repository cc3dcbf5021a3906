import type { HsSuggestion } from './types';

/** `85 Electrical machinery… > 8518 Microphones… > 851830 Headphones…` */
export function pathText(s: HsSuggestion): string {
  return s.path.map((p) => `${p.code} ${p.description}`).join(' > ');
}
