// Wire shape of GET /api/v1/hs-suggestions (docs/ai-create.md, "HS code suggestions").

export type HsSource = 'PRODUCT_LIBRARY' | 'TARIFF_ZH' | 'NOMENCLATURE';

export interface HsPathEntry {
  /** 2 (chapter), 4 (heading) or 6 digits (subheading). */
  code: string;
  description: string;
}

export interface HsSuggestion {
  /** 10 digits from a product or a tariff line, 6 from the nomenclature. */
  code: string;
  description: string;
  source: HsSource;
  /** 0..1, comparable within one source. */
  score: number;
  path: HsPathEntry[];
  legalUnits?: string[];
  elements?: string;
  productId?: string;
}
