// The create form's values, its client-side rules and the body it sends. The server checks
// the same rules and names the field of any problem (400 with `[{field, message}]`); the
// form shows those on the inputs too.
import type { Declaration } from '@/features/declarations/model/types';
import {
  CHANGE_FLAGS,
  CHANGE_FLAG_NAMES,
  CHANNEL_FLAGS,
  CONTACT_FIELDS,
  DOCUMENT_FLAGS,
  type ChangeField,
  type ChangeFlag,
  type ChannelFlag,
  type ContactField,
  type DocumentFlag,
  type ExceptionDetail,
  type ExceptionFormData,
} from './types';

export const MAX_SUMMARY = 500;
export const MAX_TEXT = 200;
export const MAX_LINES = 20;

export interface ChangeDraft {
  old: string;
  new: string;
}

export interface ExceptionFormValues {
  documents: Record<DocumentFlag, boolean>;
  otherDocuments: string[];
  exceptionDetails: ExceptionDetail[];
  changes: Record<ChangeFlag, boolean>;
  proposed: Record<ChangeField, ChangeDraft>;
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

/** The current values of the declaration the five proposed changes start from. */
export function currentValues(
  declaration: Declaration | null | undefined,
): Record<ChangeField, string> {
  const firstProduct = declaration?.products?.[0];
  const firstGoods = declaration?.declarationGoodsInfo?.[0];
  return {
    htsCode: firstProduct?.htsCode ?? firstGoods?.goodsCode ?? '',
    creditCode: declaration?.consigneeScc ?? '',
    customsCode: declaration?.customMaster ?? '',
    productDescription: firstProduct?.productDescription ?? firstGoods?.goodsName ?? '',
    declareElement: firstGoods?.specification ?? '',
  };
}

/** A blank form; contacts prefilled from the declaration's shipper and recipient. */
export function emptyExceptionForm(declaration?: Declaration | null): ExceptionFormValues {
  const current = currentValues(declaration);
  const contacts = record(CONTACT_FIELDS, '');
  if (declaration) {
    contacts.shipperSms = declaration.shipperPhone ?? '';
    contacts.recipientSms = declaration.recipientPhone ?? '';
    contacts.upsAccount = declaration.shipperAccount ?? '';
  }
  return {
    documents: record(DOCUMENT_FLAGS, false),
    otherDocuments: [],
    exceptionDetails: [{ exceptionCode: '', exceptionDescription: '', exceptionHandling: '' }],
    changes: record(CHANGE_FLAG_NAMES, false),
    proposed: Object.fromEntries(
      CHANGE_FIELDS.map((f) => [f, { old: current[f], new: '' }]),
    ) as Record<ChangeField, ChangeDraft>,
    channels: { sendToWechat: false, sendToEmail: true, sendToSms: false },
    personalPhone: '',
    personalEmail: '',
    contacts,
    otherDescriptions: [],
    exceptionSummary: '',
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 -]{5,19}$/;

const EMAIL_FIELDS: readonly string[] = ['shipperEmail', 'recipientEmail', 'upsAccountEmail'];
const SMS_FIELDS: readonly string[] = ['shipperSms', 'recipientSms', 'upsAccountSms'];
const WECHAT_FIELDS: readonly string[] = ['shipperWechat', 'recipientWechat', 'upsAccountWechat'];

/** Field path -> i18n key (namespace "exceptions") of every problem; empty when valid. */
export function validateExceptionForm(values: ExceptionFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const summary = values.exceptionSummary.trim();
  if (!summary) errors.exceptionSummary = 'rule.summaryRequired';
  else if (summary.length > MAX_SUMMARY) errors.exceptionSummary = 'rule.tooLong';

  const docs = DOCUMENT_FLAGS.some((f) => values.documents[f]);
  const others = values.otherDocuments.some((d) => d.trim());
  const changes = CHANGE_FLAG_NAMES.some((f) => values.changes[f]);
  if (!docs && !others && !changes) errors.documents = 'rule.nothingAsked';

  values.otherDocuments.forEach((d, i) => {
    if (!d.trim()) errors[`otherDocuments.${i}`] = 'rule.required';
    else if (d.trim().length > MAX_TEXT) errors[`otherDocuments.${i}`] = 'rule.tooLong';
  });
  values.otherDescriptions.forEach((d, i) => {
    if (!d.trim()) errors[`otherDescriptions.${i}`] = 'rule.required';
    else if (d.trim().length > MAX_SUMMARY) errors[`otherDescriptions.${i}`] = 'rule.tooLong';
  });
  values.exceptionDetails.forEach((line, i) => {
    const any = line.exceptionCode.trim() || line.exceptionDescription.trim();
    if (!any) errors[`exceptionDetails.${i}.exceptionDescription`] = 'rule.detailRequired';
    for (const key of ['exceptionCode', 'exceptionDescription', 'exceptionHandling'] as const)
      if (line[key].trim().length > MAX_TEXT)
        errors[`exceptionDetails.${i}.${key}`] = 'rule.tooLong';
  });
  if (values.exceptionDetails.length > MAX_LINES) errors.exceptionDetails = 'rule.tooManyLines';

  for (const flag of CHANGE_FLAG_NAMES) {
    if (!values.changes[flag]) continue;
    const field = CHANGE_FLAGS[flag];
    const { old, new: next } = values.proposed[field];
    if (!next.trim()) errors[`proposedChanges.${field}.new`] = 'rule.newValueRequired';
    else if (next.trim() === old.trim()) errors[`proposedChanges.${field}.new`] = 'rule.sameValue';
    else if (next.trim().length > MAX_TEXT) errors[`proposedChanges.${field}.new`] = 'rule.tooLong';
  }

  for (const field of EMAIL_FIELDS)
    if (
      values.contacts[field as ContactField].trim() &&
      !EMAIL.test(values.contacts[field as ContactField].trim())
    )
      errors[`notificationContact.${field}`] = 'rule.email';
  for (const field of SMS_FIELDS)
    if (
      values.contacts[field as ContactField].trim() &&
      !PHONE.test(values.contacts[field as ContactField].trim())
    )
      errors[`notificationContact.${field}`] = 'rule.phone';
  if (values.personalEmail.trim() && !EMAIL.test(values.personalEmail.trim()))
    errors.personalEmail = 'rule.email';
  if (values.personalPhone.trim() && !PHONE.test(values.personalPhone.trim()))
    errors.personalPhone = 'rule.phone';

  const has = (fields: readonly string[], extra = '') =>
    Boolean(extra.trim()) || fields.some((f) => values.contacts[f as ContactField].trim());
  const anyChannel =
    CHANNEL_FLAGS.some((c) => values.channels[c]) ||
    Boolean(values.personalPhone.trim()) ||
    Boolean(values.personalEmail.trim());
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

/** The create body (without `declarationId`): trimmed, blanks dropped, changes old -> new. */
export function toExceptionBody(values: ExceptionFormValues): ExceptionFormData {
  const proposedChanges: ExceptionFormData['proposedChanges'] = CHANGE_FLAG_NAMES.filter(
    (flag) => values.changes[flag],
  ).map((flag) => {
    const kind = CHANGE_FLAGS[flag];
    return {
      kind,
      old: orNull(values.proposed[kind].old),
      new: values.proposed[kind].new.trim(),
    };
  });
  const contacts = Object.fromEntries(
    CONTACT_FIELDS.map((f) => [f, orNull(values.contacts[f])]).filter(([, v]) => v !== null),
  );
  return {
    ...values.documents,
    ...values.changes,
    ...values.channels,
    exceptionDetails: values.exceptionDetails
      .map((l) => ({
        exceptionCode: l.exceptionCode.trim(),
        exceptionDescription: l.exceptionDescription.trim(),
        exceptionHandling: l.exceptionHandling.trim(),
      }))
      .filter((l) => l.exceptionCode || l.exceptionDescription || l.exceptionHandling),
    proposedChanges,
    otherDocuments: values.otherDocuments.map((d) => d.trim()).filter(Boolean),
    otherDescriptions: values.otherDescriptions.map((d) => d.trim()).filter(Boolean),
    exceptionSummary: values.exceptionSummary.trim(),
    personalPhone: orNull(values.personalPhone),
    personalEmail: orNull(values.personalEmail),
    notificationContact: contacts,
  };
}

/** What an exception asks for, as i18n keys (documents, other documents, changes). */
export function requestedItems(data: Partial<ExceptionFormData>): {
  documents: DocumentFlag[];
  otherDocuments: string[];
  changes: { field: ChangeField; old: string | null; new: string }[];
} {
  return {
    documents: DOCUMENT_FLAGS.filter((f) => data[f]),
    otherDocuments: data.otherDocuments ?? [],
    changes: CHANGE_FLAG_NAMES.filter((f) => data[f]).map((f) => {
      const field = CHANGE_FLAGS[f];
      const change = data.proposedChanges?.find((c) => c.kind === field);
      return { field, old: change?.old ?? null, new: change?.new ?? '' };
    }),
  };
}
