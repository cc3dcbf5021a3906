/** Default page size and number of page buttons (spec 9). */
export const DEFAULT_PAGE_SIZE = 10;
export const PAGER_COUNT = 5;
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}

/** Up to `count` consecutive page numbers around `current`, clamped to [1, pages]. */
export function pageWindow(current: number, pages: number, count = PAGER_COUNT): number[] {
  const size = Math.min(count, pages);
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, pages - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}
