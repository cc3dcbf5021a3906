// The admin export-report dialog lives with the declaration screens; the sidebar opens it
// lazily through this module with the props below.
export { default } from '@/features/declarations/components/ExportReportDialog';
export type { ExportReportDialogProps } from '@/features/declarations/components/ExportReportDialog';
