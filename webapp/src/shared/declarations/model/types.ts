// Wire shapes of the declaration endpoints (docs/api.md, docs/fields.md).
import type { DeclarationType } from '@/lib/declarations';

/** Text fields of the declaration form (`DeclarationData`), in the spec's spellings. */
export const TEXT_FIELDS = [
  'trackingNumber',
  'serviceType',
  'deliveryTime',
  'port',
  'slic',
  'estimatedPickupTime',
  'customMaster',
  'ieCustoms',
  'manualNo',
  'contractNo',
  'ieDate',
  'declareDate',
  'consigneeScc',
  'consigneeCustomMaster',
  'consigneeInspectCode',
  'consigneeCompanyCn',
  'consigneeCompanyEn',
  'consignorScc',
  'consignorCompanyEn',
  'ownerCompanyScc',
  'ownerCompanyCustomMaster',
  'ownerCompanyInspectCode',
  'ownerCompanyName',
  'declareCompanyName',
  'declareCompanyScc',
  'declareCompanyCustomMaster',
  'declareCompanyInspectCode',
  'trafficMode',
  'trafficName',
  'voyageNo',
  'billNo',
  'supervisionMode',
  'cutMode',
  'licenceNo',
  'tradeCountry',
  'tradeCountryCode',
  'distinatePort',
  'despPort',
  'tradeMode',
  'tradeTerms',
  'originCertificate',
  'transpotationFeeType',
  'transpotationFeeUnit',
  'insuranceFeeType',
  'insuranceFeeUnit',
  'otherFeeType',
  'otherFeeUnit',
  'packageType',
  'goodsPlace',
  'iePort',
  'customType',
  'mark',
  'note',
  'otherItem',
  'specialRelationship',
  'priceImpact',
  'paymentPrivilege',
  'cusCiqNo',
  'preEntryId',
  'entryId',
  'preDecLicense',
  'operator',
  'shipperUpsId',
  'shipperAccount',
  'shipperName',
  'shipperCompany',
  'shipperAddress',
  'shipperPhone',
  'shipperIdNumber',
  'recipientUpsId',
  'recipientAccount',
  'recipientName',
  'recipientChineseName',
  'recipientAddress',
  'recipientCompany',
  'recipientPhone',
  'recipientIdNumber',
  'currencyCode',
  'altBroker',
  'altBrokerInput',
  'businessUnit',
  'businessUnitScc',
  'businessUnitCode',
  'portCode',
] as const;

/** Number fields of the declaration form. */
export const NUMBER_FIELDS = [
  'transpotationFeeValue',
  'insuranceFeeValue',
  'otherFeeValue',
  'packageQuantity',
  'grossWeight',
  'netWeight',
  'containerCount',
  'packageWeight',
  'packageVolume',
  'packageDeclaredValue',
  'packageNumber',
  'packageGrossWeight',
  'packageNetWeight',
] as const;

export type TextField = (typeof TEXT_FIELDS)[number];
export type NumberField = (typeof NUMBER_FIELDS)[number];
export type HeaderField = TextField | NumberField;

export const GOODS_TEXT_FIELDS = [
  'goodsCode',
  'goodsName',
  'goodsUnit',
  'currency',
  'originCountry',
  'destinationCountry',
  'districtCode',
  'dutyMode',
  'exgNo',
  'exgVersion',
  'unitOne',
  'unitTwo',
  'specification',
  'trackingNumber',
  'originCode',
  'contrItem',
  'ciqName',
] as const;
export const GOODS_NUMBER_FIELDS = [
  'goodsNo',
  'goodsQuantity',
  'unitPrice',
  'totalPrice',
  'quantityOne',
  'quantityTwo',
] as const;
export type GoodsTextField = (typeof GOODS_TEXT_FIELDS)[number];
export type GoodsNumberField = (typeof GOODS_NUMBER_FIELDS)[number];
export type GoodsField = GoodsTextField | GoodsNumberField;

export type GoodsLine = { [K in GoodsTextField]?: string | null } & {
  [K in GoodsNumberField]?: number | null;
};

export interface Product {
  productDescription?: string | null;
  productDescriptionEnglish?: string | null;
  htsCode?: string | null;
}

/** The editable form (`DeclarationData`). */
export type DeclarationData = { [K in TextField]?: string | null } & {
  [K in NumberField]?: number | null;
} & {
  products?: Product[];
  declareType?: string[];
  declarationGoodsInfo?: GoodsLine[];
};

/** `GET /api/v1/declarations/{id}`: the form plus the server-owned fields. */
export type Declaration = DeclarationData & {
  id: string;
  version: number;
  position?: number;
  declarationType: DeclarationType;
  declarationClass: 'B' | 'C' | 'D';
  shipmentType: number;
  status: number;
  draftStatus: number | boolean;
  declarationStatus?: string | null;
  customerId: string;
  username: string;
  companyName?: string | null;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string | null;
};

/** A row of `GET /api/v1/declarations`. */
export interface DeclarationSummary {
  id: string;
  version: number;
  trackingNumber: string | null;
  declarationType: DeclarationType;
  shipmentType: number;
  status: number;
  draftStatus: number | boolean;
  declarationStatus: string | null;
  customerId: string;
  username: string;
  companyName: string | null;
  port: string | null;
  slic: string | null;
  serviceType: string | null;
  estimatedPickupTime: string | null;
  goodsCount: number;
  totalValue: number | null;
  currency: string | null;
  consigneeName: string | null;
  createdAt: string;
  updatedAt: string;
  /** Customs' entry number (an L or G receipt). */
  entryId?: string | null;
  /** The newest customs receipt's code and customs' notice time. */
  customsReceipt?: string | null;
  customsReceiptAt?: string | null;
  /** The status was set by hand while the customs channel is on. */
  movedByHand?: boolean;
  /** The levied total of the tax estimate recorded at submit (CNY). */
  estimatedTax?: number | null;
  /** What customs assessed (its T receipt), CNY. */
  assessedTax?: number | null;
}

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
  /** Provenance of a field proposed from documents (the creation of an AI draft). */
  source?: string;
  location?: string;
  confidence?: number;
  decision?: 'accepted' | 'changed' | 'rejected';
}

export interface HistoryEntry {
  version: number;
  position: number;
  at: string;
  actor: { id: string | null; name: string | null; role: string | null };
  eventType: string;
  action: string;
  fromStatus: number | null;
  toStatus: number | null;
  reason: string | null;
  receiptCode?: string | null;
  changes: FieldChange[] | null;
}

export interface ActivityEntry extends HistoryEntry {
  declarationId: string;
  trackingNumber: string | null;
  declarationType: DeclarationType | null;
}

export type DeclarationClass = 'B' | 'C' | 'D';
export type Direction = 'import' | 'export';

export function classOf(type: string): DeclarationClass {
  const c = type.slice(-1).toUpperCase();
  return c === 'B' || c === 'C' ? c : 'D';
}

export function directionOf(type: string): Direction {
  return type.toUpperCase().startsWith('I') ? 'import' : 'export';
}

/** ('C', 1) -> 'OC'; ('D', 0) -> 'ID'. */
export function typeCode(cls: DeclarationClass, shipmentType: number | string): DeclarationType {
  return `${Number(shipmentType) === 0 ? 'I' : 'O'}${cls}` as DeclarationType;
}
