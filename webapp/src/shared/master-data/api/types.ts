// Wire shapes of the master data endpoints (query side records, command bodies).

interface Audited {
  id: string;
  customerId: string;
  customerName?: string | null;
  createBy?: string | null;
  createTime?: string | null;
  updateBy?: string | null;
  updateTime?: string | null;
  /** The stream version: sent as If-Match. */
  version: number;
}

export interface TradeCompanyFields {
  companyNameCn: string;
  companyNameEn?: string | null;
  uscc: string;
  customsCode?: string | null;
  inspectionCode?: string | null;
  address?: string | null;
}

export type TradeCompanyRecord = Audited & TradeCompanyFields;

export interface ProductFields {
  descriptionCn: string;
  descriptionEn?: string | null;
  hsCode: string;
  declarationElements?: string | null;
  declaredUnit: string;
  legalUnitOne?: string | null;
  legalUnitTwo?: string | null;
  originCountry?: string | null;
  unitPrice?: number | string | null;
  currency?: string | null;
}

export type ProductRecord = Audited & ProductFields;

export interface ColumnMapping {
  field: string;
  header?: string | null;
  aliases?: string[];
  position?: number | null;
}

export interface Translation {
  field: string;
  from: string;
  to: string;
}

export interface FieldDefault {
  field: string;
  value: string;
}

export interface SchemeDefinition {
  name: string;
  declarationType?: string | null;
  headerRow: number;
  columns: ColumnMapping[];
  translations: Translation[];
  defaults: FieldDefault[];
}

export interface MappingSchemeRecord extends Audited {
  name: string;
  declarationType?: string | null;
  columnCount: number;
  definition: SchemeDefinition;
}

export interface MappingTarget {
  field: string;
  level: 'declaration' | 'goods';
  kind: 'text' | 'number' | 'dateTime' | 'declarationType';
}

export interface PreviewCell {
  field: string;
  column: number | null;
  raw: string | null;
  value: string | null;
  translated: boolean;
  defaulted: boolean;
  problem: string | null;
}

export interface PreviewProblem {
  field: string;
  column: number | null;
  rule: string;
  message: string;
}

export interface PreviewRow {
  row: number;
  declarationType: string | null;
  cells: PreviewCell[];
  problems: PreviewProblem[];
}

export interface MappingPreview {
  sheet: string;
  sheetRows: number;
  sheetColumns: number;
  headers: string[];
  columns: { field: string; column: number | null; foundBy: string | null }[];
  missing: string[];
  rows: PreviewRow[];
}
