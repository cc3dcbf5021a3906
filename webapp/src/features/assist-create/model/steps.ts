// The wizard's steps and what each needs before the next one opens. Pure, so the rules are
// tested without rendering.
import type { DeclarationType } from '@/lib/declarations';
import type { StartKind } from './start';

export const STEPS = ['customer', 'type', 'start', 'form', 'review'] as const;
export type Step = (typeof STEPS)[number];

export interface WizardChoices {
  /** Staff choose the customer; a customer files for themselves. */
  staff: boolean;
  customerId: string;
  type: DeclarationType | null;
  start: StartKind;
  /** The declaration to copy (start = copy). */
  copyFrom: string | null;
}

/** Why step `index` cannot be left forward (an i18n key), or null when it can. */
export function blockerOf(index: number, c: WizardChoices): string | null {
  switch (STEPS[index]) {
    case 'customer':
      return c.staff && !c.customerId.trim() ? 'customer.required' : null;
    case 'type':
      return c.type ? null : 'type.label';
    case 'start':
      return c.start === 'copy' && !c.copyFrom ? 'start.needCopy' : null;
    default:
      return null;
  }
}
