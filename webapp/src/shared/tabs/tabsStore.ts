// The tab view of spec 4: visited pages kept with their titles, affix tabs that survive
// "close all" and "close others", and the keep-alive cache (unless no-cache).
import { create } from 'zustand';

export interface TabView {
  /** Pathname: a tab's identity. */
  path: string;
  /** Pathname plus query, restored when the tab is selected. */
  fullPath: string;
  name: string;
  /** i18n key. */
  title: string;
  affix?: boolean;
  noCache?: boolean;
}

interface TabsState {
  visitedViews: TabView[];
  /** Paths whose page is kept alive while another tab is shown. */
  cachedViews: string[];
  addView: (view: TabView) => void;
  updateVisitedView: (view: TabView) => void;
  delView: (path: string) => void;
  delOthersViews: (path: string) => void;
  delAllViews: () => void;
  reset: () => void;
}

function addCached(cached: string[], view: TabView): string[] {
  if (view.noCache || cached.includes(view.path)) return cached;
  return [...cached, view.path];
}

export const useTabsStore = create<TabsState>()((set) => ({
  visitedViews: [],
  cachedViews: [],
  addView: (view) =>
    set((s) => {
      const exists = s.visitedViews.some((v) => v.path === view.path);
      return {
        visitedViews: exists ? s.visitedViews : [...s.visitedViews, view],
        cachedViews: addCached(s.cachedViews, view),
      };
    }),
  updateVisitedView: (view) =>
    set((s) => ({
      visitedViews: s.visitedViews.map((v) => (v.path === view.path ? { ...v, ...view } : v)),
    })),
  delView: (path) =>
    set((s) => ({
      visitedViews: s.visitedViews.filter((v) => v.path !== path),
      cachedViews: s.cachedViews.filter((p) => p !== path),
    })),
  delOthersViews: (path) =>
    set((s) => {
      const keep = s.visitedViews.filter((v) => v.affix || v.path === path);
      return {
        visitedViews: keep,
        cachedViews: s.cachedViews.filter((p) => keep.some((v) => v.path === p)),
      };
    }),
  delAllViews: () =>
    set((s) => {
      const keep = s.visitedViews.filter((v) => v.affix);
      return {
        visitedViews: keep,
        cachedViews: s.cachedViews.filter((p) => keep.some((v) => v.path === p)),
      };
    }),
  reset: () => set({ visitedViews: [], cachedViews: [] }),
}));
