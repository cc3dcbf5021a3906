// Where the wizard's form starts: blank, a template of the type, or a copy of an earlier
// declaration. Pure: the components fetch, these build the form values.
import type { DeclarationType } from '@/lib/declarations';
import {
  emptyGoodsLine,
  toFormValues,
  type DeclarationFormValues,
} from '@/shared/declarations/model/formValues';
import type { Declaration, DeclarationData } from '@/shared/declarations/model/types';
import { classOf } from '@/shared/declarations/model/types';

export type StartKind = 'blank' | 'template' | 'copy';

/**
 * The fixed defaults of a type (docs/assist-create.md): CNY; for B and C the express
 * service 065 and air transport (5); for D a general-trade declaration (supervision and
 * trade mode 0110 一般贸易, levy nature 101 一般征税, air transport, cartons 22) whose goods
 * lines are taxed as the rules say (levy method 1 照章征税).
 */
export function typeDefaults(type: DeclarationType): DeclarationData {
  const base: DeclarationData = { currencyCode: 'CNY', trafficMode: '5' };
  if (classOf(type) !== 'D') return { ...base, serviceType: '065' };
  return {
    ...base,
    supervisionMode: '0110',
    cutMode: '101',
    packageType: '22',
    tradeMode: '0110',
  };
}

/** The goods-line defaults of a type's template. */
export function lineDefaults(type: DeclarationType): Record<string, string> {
  return classOf(type) === 'D' ? { dutyMode: '1' } : {};
}

/**
 * Fields that identify one shipment or one filing: never copied, never templated. The
 * tracking number (also on goods lines), the customs' own numbers, the waybill and voyage,
 * and the shipment's dates.
 */
export const IDENTIFYING_FIELDS = [
  'trackingNumber',
  'entryId',
  'preEntryId',
  'cusCiqNo',
  'billNo',
  'voyageNo',
  'declareDate',
  'ieDate',
  'estimatedPickupTime',
  'deliveryTime',
] as const;

/**
 * The parties and settings a template takes from the customer's last declaration of the
 * type (who ships, who receives, who declares, and how), without goods or identifiers.
 */
export const TEMPLATE_FIELDS = [
  'serviceType',
  'port',
  'slic',
  'customMaster',
  'ieCustoms',
  'iePort',
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
  'supervisionMode',
  'cutMode',
  'tradeCountry',
  'tradeCountryCode',
  'distinatePort',
  'despPort',
  'tradeMode',
  'tradeTerms',
  'packageType',
  'shipperName',
  'shipperCompany',
  'shipperAddress',
  'shipperPhone',
  'shipperUpsId',
  'shipperAccount',
  'currencyCode',
  'businessUnit',
  'businessUnitScc',
  'businessUnitCode',
] as const;

function blankLine(type: DeclarationType): DeclarationFormValues['declarationGoodsInfo'][number] {
  return { ...emptyGoodsLine(1), ...lineDefaults(type) };
}

/** A blank form: nothing but CNY and one empty goods line. */
export function blankForm(): DeclarationFormValues {
  return toFormValues();
}

/**
 * The template of `type`: its fixed defaults, overlaid with the parties and settings of the
 * customer's last declaration of that type when there is one.
 */
export function templateForm(
  type: DeclarationType,
  last?: Partial<Declaration> | null,
): DeclarationFormValues {
  const data: Record<string, unknown> = { ...typeDefaults(type) };
  if (last) {
    const from = last as Record<string, unknown>;
    for (const f of TEMPLATE_FIELDS) {
      const v = from[f];
      if (v !== null && v !== undefined && v !== '') data[f] = v;
    }
  }
  const values = toFormValues(data as DeclarationData);
  values.declarationGoodsInfo = [blankLine(type)];
  return values;
}

/**
 * A copy of an earlier declaration: every field and goods line, without the identifying
 * fields (tracking numbers, customs numbers, waybill, dates). Ids, status, version and the
 * owner are not form fields, so they never travel.
 */
export function copyForm(source: Partial<Declaration>): DeclarationFormValues {
  const values = toFormValues(source);
  for (const f of IDENTIFYING_FIELDS) values[f] = '';
  values.declarationGoodsInfo = values.declarationGoodsInfo.map((line, i) => ({
    ...line,
    trackingNumber: '',
    goodsNo: i + 1,
  }));
  if (values.declarationGoodsInfo.length === 0) values.declarationGoodsInfo = [emptyGoodsLine(1)];
  return values;
}
