import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showMessage } from './message';
import { loading } from './loading';
import {
  ApiError,
  configureRequestClient,
  request,
  requestEnvelope,
  resetRequestClientState,
} from './request';
import { sessionActions, useSessionStore } from './session';
import { storage } from './storage';

vi.mock('./message', () => ({ showMessage: vi.fn(), message: {} }));

const shown = vi.mocked(showMessage);
const navigate = vi.fn();
const reload = vi.fn();

function answer(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function mockFetch(...responses: (Response | Error)[]) {
  const fn = vi.fn();
  for (const r of responses) {
    if (r instanceof Error) fn.mockRejectedValueOnce(r);
    else fn.mockResolvedValueOnce(r);
  }
  vi.stubGlobal('fetch', fn);
  return fn;
}

const envelope = (code: number, data: unknown = null, message = '', extra = {}) => ({
  code,
  message,
  data,
  refreshed: false,
  accessToken: null,
  ...extra,
});

beforeEach(() => {
  shown.mockClear();
  navigate.mockClear();
  reload.mockClear();
  resetRequestClientState();
  configureRequestClient({ navigate, reload });
  useSessionStore.getState().clear();
  sessionActions.setToken('old-token');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request client', () => {
  it('sends the bearer token, cookies and the language, and resolves with data', async () => {
    const fetch = mockFetch(answer(envelope(200, { a: 1 })));
    await expect(
      request('/api/v1/x', { params: { a: 'b', n: null, list: ['1', '2'] } }),
    ).resolves.toEqual({ a: 1 });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/v1/x?a=b&list=1%2C2');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer old-token');
    expect(init.headers['Accept-Language']).toBe('zh');
  });

  it('posts form-encoded bodies for the login contract', async () => {
    const fetch = mockFetch(answer(envelope(200, 'tok')));
    await request('/auth/login', { method: 'POST', form: { username: 'u', password: 'p w' } });
    const [, init] = fetch.mock.calls[0];
    expect(init.headers['Content-Type']).toContain('application/x-www-form-urlencoded');
    expect(init.body).toBe('username=u&password=p+w');
  });

  it('replaces the stored token when the answer is refreshed', async () => {
    mockFetch(answer(envelope(200, null, '', { refreshed: true, accessToken: 'new-token' })));
    await request('/api/v1/x');
    expect(useSessionStore.getState().token).toBe('new-token');
    expect(storage.get('token')).toBe('new-token');
  });

  it('counts loading per request unless hiddenLoading', async () => {
    let seen = -1;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        seen = loading.pending();
        return answer(envelope(200));
      }),
    );
    await request('/a');
    expect(seen).toBe(1);
    expect(loading.pending()).toBe(0);
    await request('/a', { hiddenLoading: true });
    expect(seen).toBe(0);
  });

  it('on HTTP 401 warns, logs out and reloads, once for a burst', async () => {
    mockFetch(answer(envelope(401, null, 'expired'), 401), answer(envelope(401), 401));
    await expect(request('/a')).rejects.toMatchObject({ code: 401 });
    await expect(request('/b')).rejects.toBeInstanceOf(ApiError);
    expect(shown).toHaveBeenCalledTimes(1);
    expect(shown).toHaveBeenCalledWith('warning', '您还未登录或登录已超时，请先登录！');
    expect(useSessionStore.getState().token).toBeNull();
    expect(storage.get('token')).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('treats the re-login code in a 200 answer like HTTP 401', async () => {
    mockFetch(answer(envelope(401)));
    await expect(request('/a')).rejects.toMatchObject({ code: 401 });
    expect(reload).toHaveBeenCalled();
  });

  it('goes to /401 on code -1 and rejects', async () => {
    mockFetch(answer(envelope(-1, null, 'no')));
    await expect(request('/a')).rejects.toMatchObject({ code: -1 });
    expect(navigate).toHaveBeenCalledWith('/401');
  });

  it('toasts other error codes with the message and rejects with code and data', async () => {
    mockFetch(
      answer(envelope(400, [{ field: 'trackingNumber', message: 'required' }], 'bad'), 400),
    );
    const error = await request('/a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual([
      { field: 'trackingNumber', message: 'required' },
    ]);
    expect(shown).toHaveBeenCalledWith('error', 'bad');
  });

  it('exposes the 409 reason', async () => {
    mockFetch(answer(envelope(409, { reason: 'VERSION_CONFLICT' }, 'conflict'), 409));
    const error = (await request('/a').catch((e: unknown) => e)) as ApiError;
    expect(error.reason).toBe('VERSION_CONFLICT');
  });

  it('does not toast when hideErrorMessage is set', async () => {
    mockFetch(answer(envelope(10000, null, 'wrong password')));
    await expect(request('/a', { hideErrorMessage: true })).rejects.toMatchObject({ code: 10000 });
    expect(shown).not.toHaveBeenCalled();
  });

  it.each([10002, 10003, 10004, 10005, 10006])('is silent for code %i', async (code) => {
    mockFetch(answer(envelope(code, null, 'x')));
    await expect(request('/a')).rejects.toMatchObject({ code });
    expect(shown).not.toHaveBeenCalled();
  });

  it.each([
    'your account has been cancelled',
    'Sorry: YOUR ACCOUNT HAS BEEN CANCELLED.',
    '您的账户已注销',
  ])('is silent for the cancelled-account message %s', async (text) => {
    mockFetch(answer(envelope(10000, null, text)));
    await expect(request('/a')).rejects.toMatchObject({ code: 10000 });
    expect(shown).not.toHaveBeenCalled();
  });

  it('returns the exception code 20000 as a normal result', async () => {
    mockFetch(answer(envelope(20000, { x: 1 }, 'partly')));
    await expect(requestEnvelope('/a')).resolves.toMatchObject({ code: 20000, message: 'partly' });
    expect(shown).not.toHaveBeenCalled();
  });

  it('toasts a non-JSON HTTP error', async () => {
    mockFetch(
      new Response('<html>bad gateway</html>', {
        status: 502,
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    await expect(request('/a')).rejects.toMatchObject({ status: 502 });
    expect(shown).toHaveBeenCalledWith('error', '请求失败（502）');
  });

  it('reports a network failure', async () => {
    mockFetch(new TypeError('failed to fetch'));
    await expect(request('/a')).rejects.toMatchObject({ code: 0 });
    expect(shown).toHaveBeenCalledWith('error', '网络异常，请检查网络连接');
  });

  it('times out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) =>
            init.signal!.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            ),
          ),
      ),
    );
    await expect(request('/a', { timeout: 5 })).rejects.toMatchObject({ code: 408 });
    expect(shown).toHaveBeenCalledWith('error', '请求超时，请稍后重试');
  });
});
