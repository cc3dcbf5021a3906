// The reference-counted loading indicator of the request client, and the blocking overlays
// ("exiting" during logout, "please wait" during downloads).
import { create } from 'zustand';

interface LoadingState {
  pending: number;
  blocking: string | null;
  start: () => void;
  stop: () => void;
  block: (text: string) => void;
  unblock: () => void;
}

export const useLoadingStore = create<LoadingState>()((set) => ({
  pending: 0,
  blocking: null,
  start: () => set((s) => ({ pending: s.pending + 1 })),
  stop: () => set((s) => ({ pending: Math.max(0, s.pending - 1) })),
  block: (text) => set({ blocking: text }),
  unblock: () => set({ blocking: null }),
}));

export const loading = {
  start: () => useLoadingStore.getState().start(),
  stop: () => useLoadingStore.getState().stop(),
  block: (text: string) => useLoadingStore.getState().block(text),
  unblock: () => useLoadingStore.getState().unblock(),
  pending: () => useLoadingStore.getState().pending,
};
