// Wire shapes of the customer archive endpoints (GET/POST/PUT /api/v1/customers...), named
// from the server's document.
import type { Wire } from '@/shared/api/wire';

export type CustomerStatus = 'active' | 'disabled';

/** A customer of the archive, as the list and the detail answer it. */
export type CustomerSummary = Omit<Wire<'CustomerRecord'>, 'status'> & { status: CustomerStatus };

/** One of a customer's logins. */
export type CustomerAccount = Wire<'CustomerAccount'>;

export type CustomerDetail = CustomerSummary & { accounts: CustomerAccount[] };

/**
 * A login created with a customer or added later. `initialPassword` is the generated one,
 * answered once (null when the staff member chose it, and on a replay).
 */
export type NewLogin = Wire<'CustomerLogin'>;

/** A NewLogin whose generated password is to be shown. */
export type GeneratedLogin = NewLogin & { initialPassword: string };

export function hasGeneratedPassword(login: NewLogin | null | undefined): login is GeneratedLogin {
  return !!login?.initialPassword;
}
