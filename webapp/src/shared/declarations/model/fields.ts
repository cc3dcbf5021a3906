// The declaration form's fields grouped as docs/fields.md groups them, with the input each
// needs. The detail page, the form and the print view all render from this list.
import type { DeclarationClass, Direction, GoodsField, HeaderField } from './types';

export type RefTable =
  | 'countries'
  | 'currencies'
  | 'units'
  | 'ports'
  | 'supervision-modes'
  | 'levy-types'
  | 'levy-methods'
  | 'transport-modes'
  | 'packing-types'
  | 'trade-terms'
  | 'customs-offices'
  | 'districts'
  | 'service-types'
  | 'customs-types';

export type FieldKind =
  /** Free text. */
  | 'text'
  /** The courier's port, from the port list (free text when the list cannot be read). */
  | 'port'
  /** A facility SLIC of the form's port. */
  | 'slic'
  /** Long free text. */
  | 'textarea'
  | 'number'
  /** YYYYMMDD (also accepts YYYY-MM-DD or ISO 8601 on the server). */
  | 'date'
  /** ISO 8601 with offset. */
  | 'datetime'
  /** Code from a reference table. */
  | 'ref'
  /** Code from a reference table, or free text (ports: foreign ports are free). */
  | 'refFree'
  /** 0/1 promise marker. */
  | 'marker'
  /** Fee mark 1 rate, 2 unit price, 3 total. */
  | 'feeType';

export interface FieldDef<N extends string = HeaderField> {
  name: N;
  kind: FieldKind;
  table?: RefTable;
  /** Only shown for this direction (import/export). */
  direction?: Direction;
}

export interface FieldGroup {
  id: string;
  fields: FieldDef[];
  /** Part of the shipment form (B/C) rather than the formal declaration header (D). */
  shipment?: boolean;
}

const text = (name: HeaderField): FieldDef => ({ name, kind: 'text' });
const num = (name: HeaderField): FieldDef => ({ name, kind: 'number' });
const ref = (name: HeaderField, table: RefTable): FieldDef => ({ name, kind: 'ref', table });

export const HEADER_GROUPS: FieldGroup[] = [
  {
    id: 'tracking',
    fields: [
      text('trackingNumber'),
      ref('serviceType', 'service-types'),
      text('deliveryTime'),
      { name: 'port', kind: 'port' },
      { name: 'slic', kind: 'slic' },
      { name: 'estimatedPickupTime', kind: 'datetime' },
    ],
  },
  {
    id: 'customs',
    fields: [
      ref('customMaster', 'customs-offices'),
      ref('ieCustoms', 'customs-offices'),
      text('manualNo'),
      text('contractNo'),
      { name: 'ieDate', kind: 'date' },
      { name: 'declareDate', kind: 'date' },
    ],
  },
  {
    id: 'parties',
    fields: [
      text('consigneeCompanyCn'),
      text('consigneeCompanyEn'),
      text('consigneeScc'),
      text('consigneeCustomMaster'),
      text('consigneeInspectCode'),
      text('consignorCompanyEn'),
      text('consignorScc'),
    ],
  },
  {
    id: 'owner',
    fields: [
      text('ownerCompanyName'),
      text('ownerCompanyScc'),
      text('ownerCompanyCustomMaster'),
      text('ownerCompanyInspectCode'),
    ],
  },
  {
    id: 'declarant',
    fields: [
      text('declareCompanyName'),
      text('declareCompanyScc'),
      text('declareCompanyCustomMaster'),
      text('declareCompanyInspectCode'),
    ],
  },
  {
    id: 'transport',
    fields: [
      ref('trafficMode', 'transport-modes'),
      text('trafficName'),
      text('voyageNo'),
      text('billNo'),
    ],
  },
  {
    id: 'supervision',
    fields: [
      ref('supervisionMode', 'supervision-modes'),
      ref('cutMode', 'levy-types'),
      text('licenceNo'),
    ],
  },
  {
    id: 'trade',
    fields: [
      ref('tradeCountry', 'countries'),
      ref('tradeCountryCode', 'countries'),
      { name: 'distinatePort', kind: 'refFree', table: 'ports', direction: 'export' },
      { name: 'despPort', kind: 'refFree', table: 'ports', direction: 'import' },
      ref('tradeMode', 'supervision-modes'),
      ref('tradeTerms', 'trade-terms'),
      text('originCertificate'),
    ],
  },
  {
    id: 'fees',
    fields: [
      { name: 'transpotationFeeType', kind: 'feeType' },
      num('transpotationFeeValue'),
      ref('transpotationFeeUnit', 'currencies'),
      { name: 'insuranceFeeType', kind: 'feeType' },
      num('insuranceFeeValue'),
      ref('insuranceFeeUnit', 'currencies'),
      { name: 'otherFeeType', kind: 'feeType' },
      num('otherFeeValue'),
      ref('otherFeeUnit', 'currencies'),
    ],
  },
  {
    id: 'package',
    fields: [
      num('packageQuantity'),
      ref('packageType', 'packing-types'),
      num('grossWeight'),
      num('netWeight'),
      num('containerCount'),
      text('goodsPlace'),
    ],
  },
  {
    id: 'other',
    fields: [
      ref('iePort', 'customs-offices'),
      ref('customType', 'customs-types'),
      text('mark'),
      text('otherItem'),
      { name: 'specialRelationship', kind: 'marker' },
      { name: 'priceImpact', kind: 'marker' },
      { name: 'paymentPrivilege', kind: 'marker' },
      { name: 'note', kind: 'textarea' },
    ],
  },
  {
    id: 'identifiers',
    fields: [text('cusCiqNo'), text('preEntryId'), text('entryId'), text('preDecLicense')],
  },
  {
    id: 'shipper',
    shipment: true,
    fields: [
      text('shipperName'),
      text('shipperCompany'),
      text('shipperAddress'),
      text('shipperPhone'),
      { name: 'shipperIdNumber', kind: 'text', direction: 'export' },
      text('shipperUpsId'),
      text('shipperAccount'),
      text('operator'),
    ],
  },
  {
    id: 'recipient',
    shipment: true,
    fields: [
      text('recipientName'),
      text('recipientChineseName'),
      text('recipientAddress'),
      text('recipientCompany'),
      text('recipientPhone'),
      { name: 'recipientIdNumber', kind: 'text', direction: 'import' },
      text('recipientUpsId'),
      text('recipientAccount'),
    ],
  },
  {
    id: 'parcel',
    shipment: true,
    fields: [
      num('packageNumber'),
      num('packageWeight'),
      num('packageGrossWeight'),
      num('packageNetWeight'),
      num('packageVolume'),
      num('packageDeclaredValue'),
      ref('currencyCode', 'currencies'),
    ],
  },
  {
    id: 'broker',
    shipment: true,
    fields: [
      text('businessUnit'),
      text('businessUnitScc'),
      text('businessUnitCode'),
      text('altBroker'),
      text('altBrokerInput'),
      text('portCode'),
    ],
  },
];

/** Group order: B/C lead with the shipment form, D with the formal declaration header. */
export function orderedGroups(cls: DeclarationClass): FieldGroup[] {
  const shipment = HEADER_GROUPS.filter((g) => g.shipment);
  const header = HEADER_GROUPS.filter((g) => !g.shipment);
  if (cls === 'D') return [...header, ...shipment];
  // tracking first, then the shipment form, then the rest of the header.
  return [header[0], ...shipment, ...header.slice(1)];
}

/** Groups open by default in the form for a class (the rest start collapsed). */
export function primaryGroupIds(cls: DeclarationClass): string[] {
  if (cls === 'D') return HEADER_GROUPS.filter((g) => !g.shipment).map((g) => g.id);
  return ['tracking', 'shipper', 'recipient', 'parcel'];
}

/** Whether a field applies to a direction (distinatePort export only, ...). */
export function fieldApplies(def: { direction?: Direction }, direction: Direction): boolean {
  return !def.direction || def.direction === direction;
}

export interface GoodsFieldDef extends FieldDef<GoodsField> {
  /** Shown as a column of the editable goods table (others in the row's details). */
  column?: boolean;
}

export const GOODS_FIELDS: GoodsFieldDef[] = [
  { name: 'goodsNo', kind: 'number' },
  { name: 'goodsCode', kind: 'text', column: true },
  { name: 'goodsName', kind: 'text', column: true },
  { name: 'goodsQuantity', kind: 'number', column: true },
  { name: 'goodsUnit', kind: 'ref', table: 'units', column: true },
  { name: 'unitPrice', kind: 'number', column: true },
  { name: 'totalPrice', kind: 'number', column: true },
  { name: 'currency', kind: 'ref', table: 'currencies', column: true },
  { name: 'originCountry', kind: 'ref', table: 'countries' },
  { name: 'destinationCountry', kind: 'ref', table: 'countries' },
  { name: 'districtCode', kind: 'ref', table: 'districts' },
  { name: 'dutyMode', kind: 'ref', table: 'levy-methods' },
  { name: 'quantityOne', kind: 'number' },
  { name: 'unitOne', kind: 'ref', table: 'units' },
  { name: 'quantityTwo', kind: 'number' },
  { name: 'unitTwo', kind: 'ref', table: 'units' },
  { name: 'specification', kind: 'text' },
  { name: 'exgNo', kind: 'text' },
  { name: 'exgVersion', kind: 'text' },
  { name: 'trackingNumber', kind: 'text' },
  { name: 'originCode', kind: 'text' },
  { name: 'contrItem', kind: 'text' },
  { name: 'ciqName', kind: 'text' },
];

export const PRODUCT_FIELDS = [
  'productDescription',
  'productDescriptionEnglish',
  'htsCode',
] as const;

/** Every reference table a form of this class reads. */
export const FORM_TABLES: RefTable[] = [
  'countries',
  'currencies',
  'units',
  'ports',
  'supervision-modes',
  'levy-types',
  'levy-methods',
  'transport-modes',
  'packing-types',
  'customs-offices',
  'districts',
  'service-types',
  'customs-types',
];

export const GROUP_OF: Record<string, string> = Object.fromEntries(
  HEADER_GROUPS.flatMap((g) => g.fields.map((f) => [f.name, g.id])),
);

/** The accordion group a form path belongs to. */
export function groupOfPath(path: string): string {
  const top = path.split('.')[0];
  if (top === 'declarationGoodsInfo') return 'goods';
  if (top === 'products' || top === 'declareType') return 'products';
  if (top === 'customerId') return 'owning';
  return GROUP_OF[top] ?? 'tracking';
}
