// The create form's values, its client-side rules and the body it sends. Problems are keyed
// by the server's field names (`exceptionDetails[0].exceptionDescription`, `otherDocuments[1]`,
// `newHtsCode`, `notificationContact.shipperEmail`), so the server's 400 answers land on
// the same inputs as the client's checks.
import type { Declaration } from '@/shared/declarations/model/types';
import { phoneOk } from '@/lib/fieldRules';
import {
  CHANGE_FLAGS,
  CHANGE_FLAG_NAMES,
  CHANNEL_FLAGS,
  CONTACT_FIELDS,
  DOCUMENT_FLAGS,
  NEW_VALUE_FIELDS,
  type ChangeField,
  type ChangeFlag,
  type ChannelFlag,
  type ContactField,
  type DocumentFlag,
  type ExceptionCreateBody,
  type ExceptionDetail,
  type ExceptionFormData,
  type ProposedChange,
} from '@/shared/clearance-exceptions/model/types';

export const MAX_SUMMARY = 1000;
export const MAX_TEXT = 200;
export const MAX_DETAIL = 500;
export const MAX_CODE = 50;
export const MAX_LINES = 20;
export const MAX_ADDRESS = 100;

export interface ExceptionFormValues {
  documents: Record<DocumentFlag, boolean>;
  otherDocuments: string[];
  exceptionDetails: ExceptionDetail[];
  changes: Record<ChangeFlag, boolean>;
  /** The declaration's current values (shown; the server records them as "old"). */
  current: Record<ChangeField, string>;
  /** The proposed new values. */
  proposed: Record<ChangeField, string>;
  channels: Record<ChannelFlag, boolean>;
  personalPhone: string;
  personalEmail: string;
  contacts: Record<ContactField, string>;
  otherDescriptions: string[];
  exceptionSummary: string;
}

const record = <K extends string, V>(keys: readonly K[], value: V) =>
  Object.fromEntries(keys.map((k) => [k, value])) as Record<K, V>;

const CHANGE_FIELDS = Object.values(CHANGE_FLAGS) as ChangeField[];

/**
 * The declaration's values the five changes replace, as the server reads them: the first
 * goods line's `goodsCode`, `goodsName` and `specification`, `consigneeScc`,
 * `consigneeCustomMaster`.
 */
export function currentValues(
  declaration: Declaration | null | undefined,
): Record<ChangeField, string> {
  const line = declaration?.declarationGoodsInfo?.[0];
  return {
    htsCode: line?.goodsCode ?? '',
    creditCode: declaration?.consigneeScc ?? '',
    customsCode: declaration?.consigneeCustomMaster ?? '',
    productDescription: line?.goodsName ?? '',
    declareElement: line?.specification ?? '',
  };
}

const emptyDetail = (): ExceptionDetail => ({
  exceptionCode: '',
  exceptionDescription: '',
  exceptionHandling: '',
});

/** A blank form; contacts prefilled from the declaration's shipper and recipient. */
export function emptyExceptionForm(declaration?: Declaration | null): ExceptionFormValues {
  const contacts = record(CONTACT_FIELDS, '');
  if (declaration) {
    contacts.shipperSms = declaration.shipperPhone ?? '';
    contacts.recipientSms = declaration.recipientPhone ?? '';
    contacts.upsAccount = declaration.shipperAccount ?? '';
  }
  return {
    documents: record(DOCUMENT_FLAGS, false),
    otherDocuments: [],
    exceptionDetails: [emptyDetail()],
    changes: record(CHANGE_FLAG_NAMES, false),
    current: currentValues(declaration),
    proposed: record(CHANGE_FIELDS, ''),
    channels: { sendToWechat: false, sendToEmail: true, sendToSms: false },
    personalPhone: '',
    personalEmail: '',
    contacts,
    otherDescriptions: [],
    exceptionSummary: '',
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Each proposed value's shape (the server checks the credit code's check digit too). */
const NEW_VALUE_RULES: Record<ChangeField, (v: string) => string | null> = {
  htsCode: (v) => (/^[0-9]{10}$/.test(v) ? null : 'rule.hsCode'),
  creditCode: (v) => (/^[0-9A-Z]{18}$/.test(v) ? null : 'rule.creditCode'),
  customsCode: (v) => (/^[0-9]{4}[0-9A-Z]{6}$/.test(v) ? null : 'rule.customsCode'),
  productDescription: (v) => (v.length > MAX_TEXT ? 'rule.tooLong' : null),
  declareElement: (v) => (v.length > MAX_DETAIL ? 'rule.tooLong' : null),
};

const EMAIL_FIELDS: readonly ContactField[] = ['shipperEmail', 'recipientEmail', 'upsAccountEmail'];
const SMS_FIELDS: readonly ContactField[] = ['shipperSms', 'recipientSms', 'upsAccountSms'];
const WECHAT_FIELDS: readonly ContactField[] = [
  'shipperWechat',
  'recipientWechat',
  'upsAccountWechat',
];

const blankDetail = (d: ExceptionDetail) =>
  !d.exceptionCode.trim() && !d.exceptionDescription.trim() && !d.exceptionHandling.trim();

/** Field -> i18n key (namespace "exceptions") of every problem; empty when valid. */
export function validateExceptionForm(
  values: ExceptionFormValues,
  audience: 'staff' | 'customer' = 'staff',
): Record<string, string> {
  const errors: Record<string, string> = {};
  const summary = values.exceptionSummary.trim();
  if (!summary) errors.exceptionSummary = 'rule.summaryRequired';
  else if (summary.length > MAX_SUMMARY) errors.exceptionSummary = 'rule.tooLong';

  const docs = DOCUMENT_FLAGS.some((f) => values.documents[f]);
  const others = values.otherDocuments.some((d) => d.trim());
  const changes = CHANGE_FLAG_NAMES.some((f) => values.changes[f]);
  if (!docs && !others && !changes) errors.documents = 'rule.nothingAsked';

  values.otherDocuments.forEach((d, i) => {
    if (!d.trim()) errors[`otherDocuments[${i}]`] = 'rule.required';
    else if (d.trim().length > MAX_TEXT) errors[`otherDocuments[${i}]`] = 'rule.tooLong';
  });
  values.otherDescriptions.forEach((d, i) => {
    if (!d.trim()) errors[`otherDescriptions[${i}]`] = 'rule.required';
    else if (d.trim().length > MAX_TEXT) errors[`otherDescriptions[${i}]`] = 'rule.tooLong';
  });
  values.exceptionDetails.forEach((line, i) => {
    if (blankDetail(line)) return;
    const p = (name: string) => `exceptionDetails[${i}].${name}`;
    if (!line.exceptionCode.trim() && !line.exceptionDescription.trim())
      errors[p('exceptionDescription')] = 'rule.detailRequired';
    if (line.exceptionCode.trim().length > MAX_CODE) errors[p('exceptionCode')] = 'rule.tooLong';
    if (line.exceptionDescription.trim().length > MAX_DETAIL)
      errors[p('exceptionDescription')] = 'rule.tooLong';
    if (line.exceptionHandling.trim().length > MAX_DETAIL)
      errors[p('exceptionHandling')] = 'rule.tooLong';
  });
  if (values.exceptionDetails.length > MAX_LINES) errors.exceptionDetails = 'rule.tooManyLines';

  for (const flag of CHANGE_FLAG_NAMES) {
    if (!values.changes[flag]) continue;
    const field = CHANGE_FLAGS[flag];
    const next = values.proposed[field].trim();
    const key = NEW_VALUE_FIELDS[field];
    if (!next) errors[key] = 'rule.newValueRequired';
    else if (next === values.current[field].trim()) errors[key] = 'rule.sameValue';
    else {
      const bad = NEW_VALUE_RULES[field](next);
      if (bad) errors[key] = bad;
    }
  }

  const check = (value: string, key: string, ok: (s: string) => boolean, rule: string) => {
    const v = value.trim();
    if (!v) return;
    if (v.length > MAX_ADDRESS) errors[key] = 'rule.tooLong';
    else if (!ok(v)) errors[key] = rule;
  };
  for (const f of EMAIL_FIELDS)
    check(values.contacts[f], `notificationContact.${f}`, (s) => EMAIL.test(s), 'rule.email');
  for (const f of SMS_FIELDS)
    check(values.contacts[f], `notificationContact.${f}`, phoneOk, 'rule.phone');
  for (const f of WECHAT_FIELDS)
    check(values.contacts[f], `notificationContact.${f}`, () => true, '');
  check(values.personalEmail, 'personalEmail', (s) => EMAIL.test(s), 'rule.email');
  check(values.personalPhone, 'personalPhone', phoneOk, 'rule.phone');

  const has = (fields: readonly ContactField[], extra = '') =>
    Boolean(extra.trim()) || fields.some((f) => values.contacts[f].trim());
  if (audience === 'customer') {
    // A customer tells us how to reach them; the notice goes where they said.
    if (!values.personalPhone.trim() && !values.personalEmail.trim())
      errors.personalEmail = 'rule.reachRequired';
    return errors;
  }
  const anyChannel = CHANNEL_FLAGS.some((c) => values.channels[c]);
  if (!anyChannel) errors.channels = 'rule.noChannel';
  if (values.channels.sendToEmail && !has(EMAIL_FIELDS, values.personalEmail))
    errors['channels.sendToEmail'] = 'rule.noEmailContact';
  if (values.channels.sendToSms && !has(SMS_FIELDS, values.personalPhone))
    errors['channels.sendToSms'] = 'rule.noSmsContact';
  if (values.channels.sendToWechat && !has(WECHAT_FIELDS))
    errors['channels.sendToWechat'] = 'rule.noWechatContact';
  return errors;
}

const orNull = (v: string) => (v.trim() ? v.trim() : null);

/** The create body (without `declarationId`): trimmed, blanks dropped, the new values. */
export function toExceptionBody(values: ExceptionFormValues): ExceptionCreateBody {
  const contacts = Object.fromEntries(
    CONTACT_FIELDS.map((f) => [f, orNull(values.contacts[f])]).filter(([, v]) => v !== null),
  );
  const body: ExceptionCreateBody = {
    ...values.documents,
    ...values.changes,
    ...values.channels,
    exceptionDetails: values.exceptionDetails
      .filter((l) => !blankDetail(l))
      .map((l) => ({
        exceptionCode: l.exceptionCode.trim(),
        exceptionDescription: l.exceptionDescription.trim(),
        exceptionHandling: l.exceptionHandling.trim(),
      })),
    otherDocuments: values.otherDocuments.map((d) => d.trim()).filter(Boolean),
    otherDescriptions: values.otherDescriptions.map((d) => d.trim()).filter(Boolean),
    exceptionSummary: orNull(values.exceptionSummary),
    personalPhone: orNull(values.personalPhone),
    personalEmail: orNull(values.personalEmail),
    notificationContact: contacts,
  };
  for (const flag of CHANGE_FLAG_NAMES) {
    if (!values.changes[flag]) continue;
    const field = CHANGE_FLAGS[flag];
    (body as Record<string, unknown>)[NEW_VALUE_FIELDS[field]] = values.proposed[field].trim();
  }
  return body;
}

export interface RequestedItems {
  documents: DocumentFlag[];
  otherDocuments: string[];
  changes: { field: ChangeField; old: string | null; new: string }[];
}

/** What an exception asks for: documents, other documents, changes old -> new. */
export function requestedItems(
  form: Partial<ExceptionFormData>,
  proposedChanges: readonly ProposedChange[] = [],
): RequestedItems {
  return {
    documents: DOCUMENT_FLAGS.filter((f) => form[f]),
    otherDocuments: form.otherDocuments ?? [],
    changes: proposedChanges.map((c) => ({ field: c.kind, old: c.old, new: c.new })),
  };
}

/**
 * The list's `requestedDocuments` (flag names such as `commercialInvoice`, then other
 * documents as typed) -> the form's flag (`isCommercialInvoiceChecked`) or the text itself.
 */
export function requestedDocumentFlag(name: string): DocumentFlag | null {
  const flag = `is${name.charAt(0).toUpperCase()}${name.slice(1)}Checked`;
  return (DOCUMENT_FLAGS as readonly string[]).includes(flag) ? (flag as DocumentFlag) : null;
}

/** A customer's form: the notice goes on the channels of the phone and e-mail they gave. */
export function customerChannels(values: ExceptionFormValues): ExceptionFormValues {
  return {
    ...values,
    channels: {
      sendToWechat: false,
      sendToEmail: values.personalEmail.trim() !== '',
      sendToSms: values.personalPhone.trim() !== '',
    },
  };
}
