// Chinese strings of the HS code input (i18next namespace "hsCodes").
const zh = {
  placeholder: '输入品名或编码',
  none: '没有建议',
  searching: '正在查找…',
  forDescription: '按品名“{{text}}”建议',
  source: {
    PRODUCT_LIBRARY: '商品库',
    TARIFF_ZH: '中国税则',
    NOMENCLATURE: 'HS 2022 目录',
  },
  score: '匹配度 {{value}}',
  legalUnits: '法定单位：{{units}}',
  elements: '申报要素：{{elements}}',
  complete: '6 位子目：选择后请补全为 10 位商品编码',
};

export type HsCodesMessages = typeof zh;
export default zh;
