import { describe, expect, it } from 'vitest';
import { useUploadStore } from './uploadStore';

describe('upload store', () => {
  it('closes the upload dialog when the result banner shows, so it does not cover the banner', () => {
    useUploadStore.getState().setUploadOpen(true);
    useUploadStore.getState().showBanner();
    const s = useUploadStore.getState();
    expect(s.bannerOpen).toBe(true);
    expect(s.uploadOpen).toBe(false);
  });
});
