import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadFile, downloadFileName, fileNameFromDisposition } from './download';
import { loading } from './loading';
import { showMessage } from './message';
import { ApiError, configureRequestClient, resetRequestClientState } from './request';
import { sessionActions } from './session';

vi.mock('./message', () => ({ showMessage: vi.fn(), message: {} }));
const shown = vi.mocked(showMessage);

describe('downloadFileName', () => {
  const now = new Date(2026, 10, 22, 9, 5);
  it('uses the type and MMdd-HHmm, default "export" and ".zip"', () => {
    expect(downloadFileName(undefined, undefined, now)).toBe('export-1122-0905.zip');
    expect(downloadFileName('D', '.xlsx', now)).toBe('D-1122-0905.xlsx');
    expect(downloadFileName('OC', 'xml', new Date(2026, 0, 3, 23, 59))).toBe('OC-0103-2359.xml');
  });
});

describe('fileNameFromDisposition', () => {
  it('reads the file name the server gives, the UTF-8 form first, without directories', () => {
    expect(fileNameFromDisposition('attachment; filename="exceptions-20261124-2330.xlsx"')).toBe(
      'exceptions-20261124-2330.xlsx',
    );
    expect(
      fileNameFromDisposition(
        'attachment; filename="a.zip"; filename*=UTF-8\'\'%E5%BC%82%E5%B8%B8-1.zip',
      ),
    ).toBe('异常-1.zip');
    expect(fileNameFromDisposition('attachment; filename=../../x.xml')).toBe('x.xml');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('downloadFile', () => {
  const reload = vi.fn();
  let blocked: (string | null)[] = [];

  beforeEach(() => {
    shown.mockClear();
    reload.mockClear();
    resetRequestClientState();
    configureRequestClient({ reload, navigate: vi.fn() });
    sessionActions.setToken('tok');
    blocked = [];
    vi.spyOn(loading, 'block').mockImplementation((text) => void blocked.push(text));
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('saves the blob, blocks with "please wait" and says export succeeded', async () => {
    const fetch = vi.fn().mockResolvedValue(
      new Response('xlsx', {
        status: 200,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const name = await downloadFile('/api/v1/declarations/batch-export', {
      body: { declarationType: 'D' },
      type: 'D',
      extension: '.xlsx',
      now: new Date(2026, 10, 22, 9, 5),
    });
    expect(name).toBe('D-1122-0905.xlsx');
    expect(fetch.mock.calls[0][1].headers.Authorization).toBe('Bearer tok');
    expect(blocked).toEqual(['正在导出，请稍候…']);
    expect(shown).toHaveBeenCalledWith('success', '导出成功');
  });

  it('keeps the name the server gives when asked to, and can stay quiet on success', async () => {
    const headers = {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="clearance-exceptions-20261124-233000.zip"',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response('zip', { status: 200, headers })),
    );
    const named = await downloadFile('/api/v1/clearance/batch-export', {
      body: { exportFormat: '03' },
      serverName: true,
      type: 'exceptions',
      extension: '.zip',
    });
    expect(named).toBe('clearance-exceptions-20261124-233000.zip');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('pdf', { status: 200 })));
    shown.mockClear();
    const fallback = await downloadFile('/api/v1/clearance-exceptions/e/documents/d', {
      method: 'GET',
      serverName: true,
      type: 'invoice',
      extension: '.pdf',
      successMessage: false,
      now: new Date(2026, 10, 22, 9, 5),
    });
    expect(fallback).toBe('invoice-1122-0905.pdf');
    expect(shown).not.toHaveBeenCalled();
  });

  it('shows the message of a JSON error answer and rejects', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ code: 500, message: 'boom', data: null }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
    await expect(downloadFile('/x')).rejects.toMatchObject({ code: 500, message: 'boom' });
    expect(shown).toHaveBeenCalledWith('error', 'boom');
  });

  it('logs out on 401', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ code: 401, message: 'expired' }), {
          status: 401,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
    await expect(downloadFile('/x')).rejects.toBeInstanceOf(ApiError);
    expect(reload).toHaveBeenCalled();
    expect(sessionActions.token()).toBeNull();
  });

  it('says the download timed out on a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('network')));
    await expect(downloadFile('/x')).rejects.toMatchObject({ code: 408 });
    expect(shown).toHaveBeenCalledWith('error', '下载超时，请减少选择的报关单数量后重试');
  });
});
