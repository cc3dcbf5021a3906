// Wire shapes of the customer archive endpoints (GET/POST/PUT /api/v1/customers...).

export type CustomerStatus = 'active' | 'disabled';

export interface CustomerSummary {
  customerId: string;
  username: string;
  companyName: string;
  city: string | null;
  portCode: string | null;
  slicCode: string | null;
  postalCode: string | null;
  upsAccount: string | null;
  upsId: string | null;
  accountNo: string | null;
  email: string | null;
  scc: string | null;
  declarationTypes: string[] | null;
  status: CustomerStatus;
  isLocked: boolean;
  accountCount: number;
  createBy: string | null;
  createTime: string | null;
  updateBy: string | null;
  updateTime: string | null;
  version: number;
}

export interface CustomerAccount {
  accountId: string;
  username: string;
  email: string | null;
  status: string;
  mustSetPassword: boolean;
  hasPassword: boolean;
  createTime: string | null;
}

export interface CustomerDetail extends CustomerSummary {
  accounts: CustomerAccount[];
}

/**
 * A login created with a customer or added later. `initialPassword` is the generated one,
 * answered once (null when the staff member chose it, and on a replay).
 */
export interface NewLogin {
  id: string;
  username: string;
  initialPassword: string | null;
}

/** A NewLogin whose generated password is to be shown. */
export type GeneratedLogin = NewLogin & { initialPassword: string };

export function hasGeneratedPassword(login: NewLogin | null | undefined): login is GeneratedLogin {
  return !!login?.initialPassword;
}
