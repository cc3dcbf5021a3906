// Wire shapes of the upload endpoints (spec 3, "Upload log record").

/** '3' processing, '1' done clean, '2' done with abnormal or repeated rows, '0' failed. */
export type UploadStatus = '0' | '1' | '2' | '3';

export interface UploadRecord {
  id: string;
  fileOriginName: string;
  createTime: string;
  /** Declaration type code (OC, ID, ...). */
  type: string;
  /** true: database table; false: declaration draft. */
  isRowData: boolean;
  /** true: fixed template; false: custom. */
  isFixed: boolean;
  ticketSuccess: number;
  success: number;
  repeat: number;
  abnormal: number;
  confirm: boolean;
  status: UploadStatus;
  /** JSON text; empty becomes null. */
  logDetail: string | null;
  /** Rows (table) or files (draft) in the file; null until read. */
  total: number | null;
  done: number;
}

export interface UploadItem {
  row: number;
  trackingNumber: string | null;
  fileName: string | null;
  desc: string;
  isRepeat: boolean;
  /** A note on a row that went into a declaration (its HS code filled from the product library). */
  note?: boolean;
}

export interface UploadDetail extends UploadRecord {
  logDetailList: UploadItem[] | null;
  logFileDetailList: UploadItem[] | null;
  /** Abnormal and repeated rows in all. */
  total: number;
}

export const DECLARATION_TYPES = ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'] as const;
