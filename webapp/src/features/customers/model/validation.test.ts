import { describe, expect, it } from 'vitest';
import {
  EMPTY_CUSTOMER_FORM,
  formFieldOf,
  isEmail,
  toCreateBody,
  toProfileBody,
  validateCompanyName,
  validateCustomerForm,
  validateEmail,
  validatePostalCode,
  validateScc,
  validateUsername,
  type CustomerFormValues,
} from './validation';

const valid: CustomerFormValues = {
  ...EMPTY_CUSTOMER_FORM,
  username: 'acme-2',
  companyName: 'ACME Trading Co.',
  postalCode: '200120',
  email: 'ops@acme.example',
  scc: '91310115MA1K4XXX3B',
};

describe('customer form rules', () => {
  it('requires the company name and caps its length', () => {
    expect(validateCompanyName('')).toBe('customers.rule.companyRequired');
    expect(validateCompanyName('   ')).toBe('customers.rule.companyRequired');
    expect(validateCompanyName('ACME')).toBeNull();
    expect(validateCompanyName('x'.repeat(101))).toBe('customers.rule.tooLong');
  });

  it('takes a username of letters, digits and . _ - @ up to 64 characters', () => {
    expect(validateUsername('')).toBe('customers.rule.usernameRequired');
    expect(validateUsername('a b')).toBe('customers.rule.usernameFormat');
    expect(validateUsername('张三')).toBe('customers.rule.usernameFormat');
    expect(validateUsername('x'.repeat(65))).toBe('customers.rule.usernameFormat');
    expect(validateUsername('ops.acme_1-a@x')).toBeNull();
  });

  it('wants a six-digit postal code when one is given', () => {
    expect(validatePostalCode('')).toBeNull();
    expect(validatePostalCode('200120')).toBeNull();
    expect(validatePostalCode('20012')).toBe('customers.rule.postalCode');
    expect(validatePostalCode('2001200')).toBe('customers.rule.postalCode');
    expect(validatePostalCode('20012a')).toBe('customers.rule.postalCode');
  });

  it('checks the e-mail shape the server checks', () => {
    expect(isEmail('a@b.cn')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('@b.cn')).toBe(false);
    expect(isEmail('a@@b.cn')).toBe(false);
    expect(isEmail('a b@c.cn')).toBe(false);
    expect(isEmail('a@.cn')).toBe(false);
    expect(isEmail('a@b.')).toBe(false);
    expect(validateEmail('')).toBeNull();
    expect(validateEmail('nope')).toBe('customers.rule.email');
  });

  it('wants 18 credit-code characters without I, O, S, V, Z', () => {
    expect(validateScc('')).toBeNull();
    expect(validateScc('91310115MA1K4XXX3B')).toBeNull();
    expect(validateScc('91310115MA1K4XXX3')).toBe('customers.rule.scc');
    expect(validateScc('91310115MA1K4XXXOB')).toBe('customers.rule.scc');
    expect(validateScc('91310115ma1k4xxx3b')).toBe('customers.rule.scc');
  });

  it('marks every bad field of the form at once', () => {
    expect(validateCustomerForm(valid, 'create')).toEqual({});
    const errors = validateCustomerForm(
      {
        ...valid,
        username: '',
        companyName: '',
        postalCode: '1',
        email: 'x',
        scc: 'short',
        city: 'c'.repeat(101),
        loginEmail: 'bad',
      },
      'create',
    );
    expect(errors).toEqual({
      username: 'customers.rule.usernameRequired',
      companyName: 'customers.rule.companyRequired',
      postalCode: 'customers.rule.postalCode',
      email: 'customers.rule.email',
      scc: 'customers.rule.scc',
      city: 'customers.rule.tooLong',
      loginEmail: 'customers.rule.email',
    });
  });

  it('does not check the username when editing, nor the login when none is created', () => {
    expect(validateCustomerForm({ ...valid, username: '' }, 'edit')).toEqual({});
    expect(
      validateCustomerForm({ ...valid, createLogin: false, loginEmail: 'bad' }, 'create'),
    ).toEqual({});
  });

  it('applies the password rule to an initial password that is given', () => {
    expect(validateCustomerForm({ ...valid, initialPassword: 'short' }, 'create')).toEqual({
      initialPassword: 'validation.passwordRule',
    });
    expect(
      validateCustomerForm({ ...valid, initialPassword: 'Acme-2Password1' }, 'create'),
    ).toEqual({ initialPassword: 'validation.passwordRule' });
    expect(validateCustomerForm({ ...valid, initialPassword: 'Harbour2026x' }, 'create')).toEqual(
      {},
    );
  });
});

describe('request bodies', () => {
  it('sends only the filled optional fields on creation, with the login settings', () => {
    expect(
      toCreateBody({
        ...valid,
        city: ' Shanghai ',
        scc: '91310115ma1k4xxx3b',
        declarationTypes: ['OC', 'IC'],
        loginEmail: 'login@acme.example',
      }),
    ).toEqual({
      username: 'acme-2',
      companyName: 'ACME Trading Co.',
      city: 'Shanghai',
      postalCode: '200120',
      email: 'ops@acme.example',
      scc: '91310115MA1K4XXX3B',
      declarationTypes: ['OC', 'IC'],
      createLogin: true,
      loginEmail: 'login@acme.example',
    });
    const noLogin = toCreateBody({ ...valid, createLogin: false, initialPassword: 'Secret12345' });
    expect(noLogin.createLogin).toBe(false);
    expect(noLogin).not.toHaveProperty('initialPassword');
    expect(noLogin).not.toHaveProperty('loginEmail');
  });

  it('clears blank profile fields on maintenance and never sends the username', () => {
    const body = toProfileBody({ ...valid, city: '', email: '  ' });
    expect(body).not.toHaveProperty('username');
    expect(body.city).toBeNull();
    expect(body.email).toBeNull();
    expect(body.companyName).toBe('ACME Trading Co.');
  });

  it('puts the server field errors on the form inputs', () => {
    expect(formFieldOf('companyName')).toBe('companyName');
    expect(formFieldOf('account.email')).toBe('loginEmail');
    expect(formFieldOf('declarationTypes[1]')).toBe('declarationTypes');
  });
});
