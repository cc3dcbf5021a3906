// The answers of the audit API (src/audit/api.rs).

export interface AuditMetadata {
  actorId?: string | null;
  actorRole?: string | null;
  actorName?: string | null;
  customerId?: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  requestId?: string | null;
  commandId?: string | null;
  [key: string]: unknown;
}

export interface AuditEvent {
  position: number;
  streamType: string;
  streamId: string;
  streamVersion: number;
  eventId: string;
  eventType: string;
  schemaVersion: number;
  recordedAt: string;
  payload: unknown;
  metadata: AuditMetadata;
}

export interface EventsPage {
  records: AuditEvent[];
  /** Pass as `before` for the next (older) page; null: this was the last. */
  nextBefore: number | null;
}

export interface StreamAsOf {
  streamId: string;
  asOf: string;
  /** 0: the stream had not begun by then. */
  version: number;
  state: unknown;
  timeline: AuditEvent[];
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface SealView {
  seq: number;
  position: number;
  hash: string;
  sealedAt: string;
  signature: string;
  signatureValid: boolean;
}

export interface ChainStatus {
  headPosition: number | null;
  chained: number;
  chainedTo: number | null;
  seals: number;
  lastSeal: SealView | null;
}

export interface PublicKey {
  algorithm: string;
  publicKey: string;
}

export interface ChainBreak {
  position: number;
  /** changed, missing, inserted or signature. */
  kind: string;
  detail: string;
}

export interface VerificationRun {
  id: string;
  /** running, held, broken, failed or abandoned. */
  state: string;
  startedBy: string;
  startedAt: string;
  finishedAt: string | null;
  done: number;
  total: number;
  verifiedTo: number | null;
  sealedTo: number | null;
  sealsChecked: number | null;
  unchained: number | null;
  firstBreak: ChainBreak | null;
  error: string | null;
}
