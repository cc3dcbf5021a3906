// English strings of the HS code input (i18next namespace "hsCodes").
import type { HsCodesMessages } from './hsCodes.zh';

const en: HsCodesMessages = {
  placeholder: 'Type a description or code',
  none: 'No suggestions',
  searching: 'Searching…',
  forDescription: 'Suggested for “{{text}}”',
  source: {
    PRODUCT_LIBRARY: 'Product library',
    TARIFF_ZH: 'Chinese tariff',
    NOMENCLATURE: 'HS 2022 nomenclature',
  },
  score: 'match {{value}}',
  legalUnits: 'Legal units: {{units}}',
  elements: 'Declaration elements: {{elements}}',
  complete: '6-digit subheading: complete it to the 10-digit code after choosing',
};

export default en;
