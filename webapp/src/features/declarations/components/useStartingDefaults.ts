// A new declaration starts from its customer's profile: the port, the SLIC and the company
// (the shipper's for an export, the recipient's for an import) fill the fields still empty,
// once per customer chosen, and the form says which were taken, so nothing is silent.
import { useEffect, useState } from 'react';
import type { DeclarationType } from '@/lib/declarations';
import { useCustomerProfile } from '@/shared/auth/api/customerProfile';
import { useCustomer } from '@/shared/customers/api/getCustomer';
import { directionOf } from '@/shared/declarations/model/types';
import type { DeclarationFormApi } from '@/shared/declarations/components/FormInput';

export interface StartingDefaults {
  /** Whose profile: the company's name. */
  from: string;
  /** The fields filled, with their values. */
  filled: { field: 'port' | 'slic' | 'shipperCompany' | 'recipientCompany'; value: string }[];
}

interface Profile {
  companyName?: string | null;
  portCode?: string | null;
  slicCode?: string | null;
}

export function useStartingDefaults(
  form: DeclarationFormApi,
  declarationType: DeclarationType,
  options: { isNew: boolean; staff: boolean; customerId: string },
): StartingDefaults | null {
  const { isNew, staff, customerId } = options;
  const own = useCustomerProfile(isNew && !staff);
  const chosen = useCustomer(isNew && staff && customerId ? customerId : null);
  const profile: Profile | undefined = staff ? chosen.data : own.data;
  const key = staff ? customerId : 'self';
  const [applied, setApplied] = useState<{ key: string; defaults: StartingDefaults } | null>(null);

  // Decided while rendering, once per customer (so a field the user then clears stays
  // cleared); written into the form after the render.
  if (isNew && profile && applied?.key !== key) {
    const company =
      directionOf(declarationType) === 'export' ? 'shipperCompany' : 'recipientCompany';
    const wanted: StartingDefaults['filled'] = [
      { field: 'port', value: profile.portCode ?? '' },
      { field: 'slic', value: profile.slicCode ?? '' },
      { field: company, value: profile.companyName ?? '' },
    ];
    const filled = wanted.filter(
      (w) => w.value.trim() !== '' && String(form.getValues()[w.field] ?? '').trim() === '',
    );
    setApplied({ key, defaults: { from: profile.companyName ?? '', filled } });
  }

  useEffect(() => {
    for (const f of applied?.defaults.filled ?? []) form.setFieldValue(f.field, f.value as never);
    // Only when a new set of defaults was decided.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [applied]);

  return applied?.key === key ? applied.defaults : null;
}
