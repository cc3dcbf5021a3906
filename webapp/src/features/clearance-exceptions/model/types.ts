// Wire shapes of the clearance-exception endpoints (issue 12, "API"), in the spec's
// spellings ("Exception and documents", "Notification contact", "Exception export form").
//
// Taken from the backend's events (events/src/clearance_exception.rs, being written when
// these screens were): the form's names, `notificationContact` (singular),
// `proposedChanges: [{kind, field, old, new}]`, the history actions (raise, notify,
// acknowledge, respond, approve, reject, void, upload), respond's `confirmChanges` and
// `note`, `waitingOn` 'staff' | 'customer'.
//
// ASSUMPTIONS to reconcile with the backend when merging (the command/query code was not
// written yet when these screens were; every name below is the spec's field in camelCase):
// - List rows (`GET /api/v1/clearance-exceptions`): `ExceptionSummary` below; the age is
//   computed from `waitingSince` and `waitingOn` ('customer' | 'staff'), `overdue` set by the
//   server from the configured SLA.
// - The create body sends the proposed changes as `proposedChanges: [{kind, old, new}]`, one
//   per checked `isExchange...Checked` / `isUpdate...Checked` flag (the server picks `field`).
// - Channels: `sendToWechat`, `sendToEmail`, `sendToSms` booleans; `personalPhone` and
//   `personalEmail` strings (an extra phone / address to notify).
// - Detail (`GET .../{id}`): the form plus `documents` and `deliveries` (below); history
//   (`GET .../{id}/history`): `ExceptionHistoryEntry`, the declarations' `HistoryEntry` shape
//   plus optional `channel`, `recipient`, `result`, `documentId`, `fileName`, `note`.
// - Actions (`POST .../{id}/{action}`) carry `If-Match: version`; bodies: notify `{}`,
//   acknowledge `{}`, respond `{confirmChanges, note?}` (staff acting for the customer give
//   the note),
//   approve `{}`, reject `{reason}`, void `{reason}`.
// - Uploads: multipart field `file`; the answer is a `CommandAnswer`.
// - The list's `sort` is `field,asc|desc` as on the declaration list (createdAt, status,
//   trackingNumber, waitingSince); the export form's `sort` is the spec's 1 / 2.
import type { DeclarationType } from '@/lib/declarations';

/** Clearance exception statuses of spec 4 (5 is unused). */
export const EXCEPTION_STATUSES = [1, 2, 3, 4, 6, 7] as const;
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];

/** The thirteen document-request flags, in the spec's order. */
export const DOCUMENT_FLAGS = [
  'isPersonalIdChecked',
  'isPassportChecked',
  'isPoaChecked',
  'isElectronicProxyChecked',
  'isWaybillChecked',
  'isPackingListChecked',
  'isCommercialInvoiceChecked',
  'isTradeContractChecked',
  'isProxyProtocolChecked',
  'isPriceExemptionChecked',
  'isFactSheetChecked',
  'isLegalInspectionChecked',
  'isOriginCertificateChecked',
] as const;
export type DocumentFlag = (typeof DOCUMENT_FLAGS)[number];

/** The five exchange / update flags and the proposed value each one carries. */
export const CHANGE_FLAGS = {
  isExchangeHtsCodeChecked: 'htsCode',
  isExchangeCreditCodeChecked: 'creditCode',
  isExchangeCustomsCodeChecked: 'customsCode',
  isUpdateProductDescriptionChecked: 'productDescription',
  isUpdateProductDeclareElementChecked: 'declareElement',
} as const;
export type ChangeFlag = keyof typeof CHANGE_FLAGS;
export type ChangeField = (typeof CHANGE_FLAGS)[ChangeFlag];
export const CHANGE_FLAG_NAMES = Object.keys(CHANGE_FLAGS) as ChangeFlag[];

export const CHANNEL_FLAGS = ['sendToWechat', 'sendToEmail', 'sendToSms'] as const;
export type ChannelFlag = (typeof CHANNEL_FLAGS)[number];

export const CONTACT_FIELDS = [
  'shipperWechat',
  'shipperEmail',
  'shipperSms',
  'recipientWechat',
  'recipientEmail',
  'recipientSms',
  'upsAccount',
  'upsAccountWechat',
  'upsAccountEmail',
  'upsAccountSms',
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type NotificationContacts = { [K in ContactField]?: string | null };

export interface ExceptionDetail {
  exceptionCode: string;
  exceptionDescription: string;
  exceptionHandling: string;
}

/** One proposed change: its kind, the declaration field it lands on, old -> new. */
export interface ProposedChange {
  kind: ChangeField;
  /** Set by the server (e.g. `declarationGoodsInfo[0].goodsCode`). */
  field?: string;
  old: string | null;
  new: string;
}

/** The exception form as the create call takes it (without `declarationId`). */
export type ExceptionFormData = { [K in DocumentFlag]: boolean } & {
  [K in ChangeFlag]: boolean;
} & { [K in ChannelFlag]: boolean } & {
  exceptionDetails: ExceptionDetail[];
  proposedChanges: ProposedChange[];
  otherDocuments: string[];
  otherDescriptions: string[];
  exceptionSummary: string;
  personalPhone: string | null;
  personalEmail: string | null;
  notificationContact: NotificationContacts;
};

export type WaitingOn = 'customer' | 'staff';

/** A row of `GET /api/v1/clearance-exceptions`. */
export interface ExceptionSummary {
  id: string;
  version: number;
  declarationId: string;
  trackingNumber: string | null;
  declarationType: DeclarationType;
  /** 0 import, 1 export. */
  shipmentType: number;
  status: ExceptionStatus;
  port: string | null;
  customerId: string;
  username: string;
  companyName: string | null;
  exceptionSummary: string | null;
  waitingOn: WaitingOn | null;
  waitingSince: string | null;
  overdue: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ExceptionDocument {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: string;
  uploadedBy: { name: string | null; role: string | null } | null;
}

export type DeliveryResult = 'pending' | 'sent' | 'failed' | 'not_configured';

export interface ExceptionDelivery {
  id: string;
  channel: 'wechat' | 'email' | 'sms';
  recipient: string;
  status: DeliveryResult;
  attempts: number;
  lastError: string | null;
  updatedAt: string;
}

/** `GET /api/v1/clearance-exceptions/{id}`. */
export type ClearanceException = ExceptionFormData &
  Omit<ExceptionSummary, 'exceptionSummary'> & {
    /** The declaration's status before the exception (it returns there on approval). */
    declarationPreviousStatus: number | null;
    documents: ExceptionDocument[];
    deliveries: ExceptionDelivery[];
  };

export interface ExceptionHistoryEntry {
  version: number;
  position: number;
  at: string;
  actor: { id: string | null; name: string | null; role: string | null };
  eventType: string;
  action: string;
  fromStatus: number | null;
  toStatus: number | null;
  reason: string | null;
  note?: string | null;
  channel?: string | null;
  recipient?: string | null;
  result?: string | null;
  documentId?: string | null;
  fileName?: string | null;
}
