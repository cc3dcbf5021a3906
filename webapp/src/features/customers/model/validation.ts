// Client-side checks of the customer archive form, mirroring the server's rules so most
// mistakes are marked before a round trip (the server checks again and its field errors
// land on the same inputs). Each rule answers null or an i18n key (`customers.rule.*`,
// `validation.*` for the shared password rule).
import { validatePassword } from '@/lib/validators';

export const USERNAME_MAX = 64;
export const TEXT_MAX = 100;

export interface CustomerFormValues {
  username: string;
  companyName: string;
  city: string;
  portCode: string;
  slicCode: string;
  postalCode: string;
  upsAccount: string;
  upsId: string;
  accountNo: string;
  email: string;
  scc: string;
  declarationTypes: string[];
  createLogin: boolean;
  loginEmail: string;
  initialPassword: string;
}

export const EMPTY_CUSTOMER_FORM: CustomerFormValues = {
  username: '',
  companyName: '',
  city: '',
  portCode: '',
  slicCode: '',
  postalCode: '',
  upsAccount: '',
  upsId: '',
  accountNo: '',
  email: '',
  scc: '',
  declarationTypes: [],
  createLogin: true,
  loginEmail: '',
  initialPassword: '',
};

/** Letters, digits and . _ - @, at most 64 characters (the account rule). */
export function validateUsername(value: string): string | null {
  const v = value.trim();
  if (!v) return 'customers.rule.usernameRequired';
  if (v.length > USERNAME_MAX || !/^[A-Za-z0-9._@-]+$/.test(v)) {
    return 'customers.rule.usernameFormat';
  }
  return null;
}

export function validateCompanyName(value: string): string | null {
  const v = value.trim();
  if (!v) return 'customers.rule.companyRequired';
  if (v.length > TEXT_MAX) return 'customers.rule.tooLong';
  return null;
}

/** Optional; six digits when given (mainland postal codes). */
export function validatePostalCode(value: string): string | null {
  const v = value.trim();
  return !v || /^\d{6}$/.test(v) ? null : 'customers.rule.postalCode';
}

/** Optional; one `@`, a dot in the domain, no spaces, at most 254 characters. */
export function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@') || value.length > 254) return false;
  if (/\s/.test(value)) return false;
  const domain = value.slice(at + 1);
  return domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
}

export function validateEmail(value: string): string | null {
  const v = value.trim();
  return !v || isEmail(v) ? null : 'customers.rule.email';
}

/**
 * Optional; the unified social credit code's shape: 18 characters, digits and upper-case
 * letters other than I, O, S, V, Z (GB 32100-2015). The check digit is the server's job.
 */
export function validateScc(value: string): string | null {
  const v = value.trim();
  return !v || /^[0-9A-HJ-NPQRTUWXY]{18}$/.test(v) ? null : 'customers.rule.scc';
}

/** Optional free text with a length cap. */
export function validateText(value: string): string | null {
  return value.trim().length > TEXT_MAX ? 'customers.rule.tooLong' : null;
}

/** Every field's problem (field name -> i18n key); empty when the form may be sent. */
export function validateCustomerForm(
  values: CustomerFormValues,
  mode: 'create' | 'edit',
): Record<string, string> {
  const errors: Record<string, string> = {};
  const put = (field: string, key: string | null) => {
    if (key) errors[field] = key;
  };
  if (mode === 'create') put('username', validateUsername(values.username));
  put('companyName', validateCompanyName(values.companyName));
  put('postalCode', validatePostalCode(values.postalCode));
  put('email', validateEmail(values.email));
  put('scc', validateScc(values.scc));
  for (const f of ['city', 'portCode', 'slicCode', 'upsAccount', 'upsId', 'accountNo'] as const) {
    put(f, validateText(values[f]));
  }
  if (mode === 'create' && values.createLogin) {
    put('loginEmail', validateEmail(values.loginEmail));
    if (values.initialPassword) {
      put(
        'initialPassword',
        validatePassword(values.initialPassword, {
          username: values.username,
          email: values.loginEmail || values.email,
        }),
      );
    }
  }
  return errors;
}

/** A trimmed string, or undefined when blank (optional fields are left out of the body). */
function opt(value: string): string | undefined {
  const v = value.trim();
  return v ? v : undefined;
}

/** The profile fields of PUT /api/v1/customers/{id} (blank optional fields sent as null). */
export function toProfileBody(values: CustomerFormValues): Record<string, unknown> {
  const nullable = (v: string) => opt(v) ?? null;
  return {
    companyName: values.companyName.trim(),
    city: nullable(values.city),
    portCode: nullable(values.portCode),
    slicCode: nullable(values.slicCode),
    postalCode: nullable(values.postalCode),
    upsAccount: nullable(values.upsAccount),
    upsId: nullable(values.upsId),
    accountNo: nullable(values.accountNo),
    email: nullable(values.email),
    scc: nullable(values.scc.toUpperCase()),
    declarationTypes: values.declarationTypes,
  };
}

/** The body of POST /api/v1/customers. */
export function toCreateBody(values: CustomerFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = { username: values.username.trim() };
  for (const [k, v] of Object.entries(toProfileBody(values))) {
    if (v !== null) body[k] = v;
  }
  body.createLogin = values.createLogin;
  if (values.createLogin) {
    const loginEmail = opt(values.loginEmail);
    if (loginEmail) body.loginEmail = loginEmail;
    if (values.initialPassword) body.initialPassword = values.initialPassword;
  }
  return body;
}

/**
 * Where a server field error goes on the form: the names are the body's, except the login
 * account's fields of the create answer (`account.email` and the like).
 */
export function formFieldOf(serverField: string): string {
  const map: Record<string, string> = {
    'account.username': 'username',
    'account.email': 'loginEmail',
    'account.initialPassword': 'initialPassword',
  };
  if (map[serverField]) return map[serverField];
  const base = serverField.replace(/\[\d+\]$/, '');
  return base;
}
