// Wire shapes of the clearance-exception endpoints (issue 12, "API"), in the spec's
// spellings ("Exception and documents", "Notification contact", "Exception export form").
//
// Read from the backend as it was being written (command/src/clearance_exception*,
// events/src/clearance_exception.rs, query/src/clearance_exception_list.rs in the exceptions
// branch): the create body (the form's flags, `newHtsCode` ... `newDeclareElement`,
// `goodsIndex`, `notificationContact`), the list row (`statusSince`, `ageMinutes`,
// `waitingOn`, `overdue`, `requestedDocuments`), the detail (`form` nested, `proposedChanges`
// `[{kind, field, old, new}]`, `channels`, `contacts`, `documents`, `actions` the caller may
// take now), the history (`detail` holding the event's data), the action bodies (`reason`,
// `note`, `confirmChanges`) and the server's field names in 400 answers
// (`exceptionDetails[0].exceptionDescription`, `otherDocuments[1]`, `newHtsCode`), uploads
// (multipart part `file`, at most 3 MiB), downloads and the export named by the server
// (Content-Disposition).
//
// Notices (docs/notifications.md): `deliveries` on the detail is the delivery log, and each
// attempt is a history entry of action `delivery` with `detail.channel`, `detail.recipient`
// (masked), `detail.result` (sent, failed, not_configured) and `detail.error`.
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
  /** The declaration field, e.g. `declarationGoodsInfo[0].goodsCode`. */
  field?: string;
  old: string | null;
  new: string;
}

/** The wire name of each proposed change's new value in the create body. */
export const NEW_VALUE_FIELDS: Record<ChangeField, string> = {
  htsCode: 'newHtsCode',
  creditCode: 'newCreditCode',
  customsCode: 'newCustomsCode',
  productDescription: 'newProductDescription',
  declareElement: 'newDeclareElement',
};

/** The form as the server keeps it (`form` of the detail). */
export type ExceptionFormData = { [K in DocumentFlag]: boolean } & {
  [K in ChangeFlag]: boolean;
} & { [K in ChannelFlag]: boolean } & {
  exceptionDetails: ExceptionDetail[];
  otherDocuments: string[];
  otherDescriptions: string[];
  exceptionSummary: string | null;
  personalPhone: string | null;
  personalEmail: string | null;
  notificationContact: NotificationContacts;
};

/** The create body without `declarationId`: the form plus the proposed new values. */
export type ExceptionCreateBody = ExceptionFormData & {
  goodsIndex?: number;
  newHtsCode?: string;
  newCreditCode?: string;
  newCustomsCode?: string;
  newProductDescription?: string;
  newDeclareElement?: string;
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
  port: string | null;
  username: string;
  companyName: string | null;
  status: ExceptionStatus;
  statusLabel?: string;
  exceptionSummary: string | null;
  /** Flag names (`commercialInvoice`, ...) then other documents. */
  requestedDocuments?: string[];
  noticeCount?: number;
  /** Whether the last notice reached the customer (docs/notifications.md). */
  noticeDelivery?: NoticeDelivery;
  createdAt: string;
  createdBy?: string | null;
  updatedAt: string;
  /** When the current status began (the SLA's "waiting since"). */
  statusSince: string | null;
  waitingOn: WaitingOn | null;
  ageMinutes?: number;
  /** Waiting on the customer longer than the configured time. */
  overdue: boolean;
}

export interface ExceptionDocument {
  documentId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256?: string;
  /** The uploader's name. */
  uploadedBy?: string | null;
  uploadedAt: string;
  /** The requested document it supplies (one of `requestedDocuments`); null for another file. */
  requested?: string | null;
}

/** A requested document an answer came without, and the customer's reason. */
export interface MissingDocument {
  document: string;
  reason: string;
}

export type DeliveryResult = 'pending' | 'sent' | 'failed' | 'not_configured';

/** One entry of the delivery log (docs/notifications.md). */
export interface ExceptionDelivery {
  id: string;
  /** `notify`, `reject` (rejected back to the customer) or `remind` (overdue reminder). */
  kind?: 'notify' | 'reject' | 'remind';
  channel: 'wechat' | 'email' | 'sms';
  recipient: string;
  status: DeliveryResult;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (pending only). */
  nextAttemptAt?: string | null;
  updatedAt: string;
}

export interface NoticeContact {
  channel: string;
  party: string;
  address: string;
}

/** `GET /api/v1/clearance-exceptions/{id}`. */
export interface ClearanceException extends ExceptionSummary {
  /** The declaration's status when the exception was raised (it returns there on approval). */
  declarationStatus: number | null;
  form: Partial<ExceptionFormData>;
  proposedChanges: ProposedChange[];
  /** The customer confirmed the proposed changes. */
  confirmed: boolean;
  /** The last notice's channels and contacts. */
  channels: string[];
  contacts: NoticeContact[];
  documents: ExceptionDocument[];
  lastReason: string | null;
  /** The last answer's requested documents that came without a file, and why. */
  missingDocuments?: MissingDocument[];
  /** The moves the caller may make now (the server's table). */
  actions?: string[];
  deliveries?: ExceptionDelivery[];
}

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
  /** The event's data: a notice's channels and contacts, a document, the form. */
  detail?: Record<string, unknown> | null;
}

/** One delivery of the last notice that reached no one (staff only). */
export interface DeliveryProblem {
  channel: string;
  recipient: string;
  /** `failed`, `not_configured` or `no_recipient`. */
  status: string;
  error: string | null;
}

/** Where an exception's last notice stands. */
export interface NoticeDelivery {
  state: 'none' | 'pending' | 'delivered' | 'not_delivered';
  problems: DeliveryProblem[];
}
