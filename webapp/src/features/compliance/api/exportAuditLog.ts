// POST /api/v1/audit/exports (audit:export): the log with the current filters as one file of
// JSON lines, which `clearway verify --export FILE` checks offline with the public key.
import { downloadFile } from '@/lib/download';
import i18n from '@/lib/i18n';

/** The log's filters as the log page keeps them (empty ones left out). */
export type AuditLogFilter = Partial<
  Record<
    'streamType' | 'eventType' | 'actor' | 'customerId' | 'trackingNumber' | 'from' | 'to',
    string
  >
> & {
  /** Leave out the log's own reads (the `audit_access` streams). */
  hideReads?: boolean;
};

/** Downloads the export; resolves with the file name (throws an ApiError on a 4xx). */
export const exportAuditLog = (filter: AuditLogFilter) =>
  downloadFile('/api/v1/audit/exports', {
    method: 'POST',
    body: filter,
    serverName: true,
    type: 'audit-export',
    extension: '.jsonl',
    // The log page shows a refusal (e.g. a filter that selects too much) itself.
    showError: false,
    successMessage: i18n.t('compliance.log.exported'),
  });
