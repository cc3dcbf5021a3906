// Wire shapes of /api/v1/ai-drafts (docs/ai-create.md).
import type { DeclarationType } from '@/lib/declarations';

/** Where a proposed value came from. */
export type ProposalSource =
  'document' | 'tradeCompany' | 'productLibrary' | 'derived' | 'nomenclature' | 'LLM';

export interface Proposal {
  value: unknown;
  source: ProposalSource | string;
  /** e.g. `invoice.pdf p.1 line 3`; empty for derived values. */
  location: string;
  /** 0..1 */
  confidence: number;
}

export interface DocumentLine {
  page: number;
  line: number;
  text: string;
}

export interface ReadDocument {
  name: string;
  kind: string;
  size: number;
  sha256?: string;
  pages: number;
  lines: DocumentLine[];
}

export interface ProposedClass {
  class: 'B' | 'C' | 'D' | string;
  reasonZh: string;
  reasonEn: string;
}

export interface AiDraft {
  id: string;
  version: number;
  position: number;
  customerId: string;
  declarationType: DeclarationType;
  fields: Record<string, Proposal>;
  goods: Record<string, Proposal>[];
  warnings: string[];
  class: ProposedClass | null;
  documents: ReadDocument[];
  form: Record<string, unknown>;
  declarationId: string | null;
}

/** What the reviewer decided for one proposed field. */
export type Decision = 'pending' | 'accepted' | 'edited' | 'rejected';

export interface FieldReview {
  decision: Decision;
  /** The value as edited (text input); only read when `decision` is 'edited'. */
  edited: string;
}
