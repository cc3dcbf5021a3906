import { beforeEach, describe, expect, it } from 'vitest';
import { useTabsStore, type TabView } from './tabsStore';

const home: TabView = {
  path: '/home',
  fullPath: '/home',
  name: 'home',
  title: 'route.home',
  affix: true,
};
const list: TabView = {
  path: '/list',
  fullPath: '/list?page=2',
  name: 'list',
  title: 'route.list',
};
const detail: TabView = {
  path: '/detail',
  fullPath: '/detail?id=1',
  name: 'detail',
  title: 'route.detail',
  noCache: true,
};
const other: TabView = { path: '/other', fullPath: '/other', name: 'other', title: 'route.other' };

const paths = () => useTabsStore.getState().visitedViews.map((v) => v.path);
const cached = () => useTabsStore.getState().cachedViews;

describe('tab view store', () => {
  beforeEach(() => {
    useTabsStore.getState().reset();
    const { addView } = useTabsStore.getState();
    [home, list, detail, other].forEach(addView);
  });

  it('adds a view only if its path is absent', () => {
    useTabsStore.getState().addView({ ...list, fullPath: '/list?page=9' });
    expect(paths()).toEqual(['/home', '/list', '/detail', '/other']);
    expect(useTabsStore.getState().visitedViews[1].fullPath).toBe('/list?page=2');
  });

  it('caches every view except no-cache ones', () => {
    expect(cached()).toEqual(['/home', '/list', '/other']);
  });

  it('updates a view in place by path', () => {
    useTabsStore.getState().updateVisitedView({ ...detail, fullPath: '/detail?id=2' });
    expect(paths()).toEqual(['/home', '/list', '/detail', '/other']);
    expect(useTabsStore.getState().visitedViews[2].fullPath).toBe('/detail?id=2');
  });

  it('deletes one view and its cache entry', () => {
    useTabsStore.getState().delView('/list');
    expect(paths()).toEqual(['/home', '/detail', '/other']);
    expect(cached()).toEqual(['/home', '/other']);
  });

  it('deletes the others, keeping affix views', () => {
    useTabsStore.getState().delOthersViews('/other');
    expect(paths()).toEqual(['/home', '/other']);
    expect(cached()).toEqual(['/home', '/other']);
  });

  it('deletes all, keeping affix views', () => {
    useTabsStore.getState().delAllViews();
    expect(paths()).toEqual(['/home']);
    expect(cached()).toEqual(['/home']);
  });
});
