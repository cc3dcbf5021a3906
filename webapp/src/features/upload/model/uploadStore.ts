// UI state of the upload flow (zustand): the session being polled, the latest records, the
// banner and the dialogs. Server data stays in TanStack Query; this holds only what the
// flow needs between its pieces.
import { create } from 'zustand';
import type { UploadRecord } from './types';
import { clearUploadSession, loadUploadSession, saveUploadSession } from './session';

interface UploadState {
  fileName: string;
  fileIds: string[];
  records: UploadRecord[];
  polling: boolean;
  bannerOpen: boolean;
  uploadOpen: boolean;
  historyOpen: boolean;
  /** The record whose result dialog is open. */
  resultId: string | null;
  start: (fileName: string, fileIds: string[]) => void;
  resume: () => void;
  setRecords: (records: UploadRecord[]) => void;
  stop: () => void;
  showBanner: () => void;
  closeBanner: () => void;
  setUploadOpen: (open: boolean) => void;
  setHistoryOpen: (open: boolean) => void;
  openResult: (id: string | null) => void;
}

export const useUploadStore = create<UploadState>((set) => ({
  fileName: '',
  fileIds: [],
  records: [],
  polling: false,
  bannerOpen: false,
  uploadOpen: false,
  historyOpen: false,
  resultId: null,
  start: (fileName, fileIds) => {
    saveUploadSession({ fileName, fileIds });
    set({ fileName, fileIds, records: [], polling: true, bannerOpen: false });
  },
  resume: () => {
    const s = loadUploadSession();
    if (s) set({ fileName: s.fileName, fileIds: s.fileIds, records: [], polling: true });
  },
  setRecords: (records) => set({ records }),
  stop: () => {
    clearUploadSession();
    set({ polling: false });
  },
  // The result is shown by the banner: the upload dialog (which showed the progress) closes,
  // so that it does not cover the banner's links.
  showBanner: () => set({ bannerOpen: true, uploadOpen: false }),
  // Closing the banner resets the state (spec "Upload flow").
  closeBanner: () => set({ bannerOpen: false, fileName: '', fileIds: [], records: [] }),
  setUploadOpen: (uploadOpen) => set({ uploadOpen }),
  setHistoryOpen: (historyOpen) => set({ historyOpen }),
  openResult: (resultId) => set({ resultId }),
}));
