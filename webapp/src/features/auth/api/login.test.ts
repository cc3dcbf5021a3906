import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/request';
import { flowStorage } from '@/shared/auth/flowStorage';
import { classifyLoginError, continueLogin } from '@/shared/auth/api/login';

const err = (code: number, data: unknown = null, status = 200, message = 'msg') =>
  new ApiError(code, message, status, data);

describe('classifyLoginError', () => {
  it('continues a new user (10002) to /pass-reset with the temporary token', () => {
    expect(classifyLoginError(err(10002, { tempToken: 'abc' }))).toEqual({
      kind: 'setup',
      to: '/pass-reset',
      tempToken: 'abc',
    });
  });

  it('continues a required update (10003) to /pass-update with its token', () => {
    expect(classifyLoginError(err(10003, { tempToken: 'def' }))).toEqual({
      kind: 'update',
      to: '/pass-update',
      tempToken: 'def',
    });
  });

  it('continues a moved account (10004) with the authorization and the new username', () => {
    expect(
      classifyLoginError(err(10004, { transferAuthorization: 'ta', newUsername: 'new-name' })),
    ).toEqual({
      kind: 'transfer',
      to: '/account-transfer',
      transferAuthorization: 'ta',
      newUsername: 'new-name',
    });
  });

  it('treats a continuation code without its data as a plain failure', () => {
    expect(classifyLoginError(err(10002, {}))).toEqual({ kind: 'failed' });
    expect(classifyLoginError(err(10003, null))).toEqual({ kind: 'failed' });
    expect(classifyLoginError(err(10004, { newUsername: 'x' }))).toEqual({ kind: 'failed' });
  });

  it('reports a lock (10006) with its end when given', () => {
    expect(classifyLoginError(err(10006, { lockedUntil: '2030-01-01T00:00:00Z' }))).toEqual({
      kind: 'locked',
      until: '2030-01-01T00:00:00Z',
    });
    expect(classifyLoginError(err(10006, null))).toEqual({ kind: 'locked', until: null });
  });

  it('reads the retry delay of a rate-limited answer (HTTP 429, code 207)', () => {
    expect(classifyLoginError(err(207, { retryAfter: 12 }, 429))).toEqual({
      kind: 'rateLimited',
      seconds: 12,
    });
    expect(classifyLoginError(err(207, null, 429))).toEqual({ kind: 'rateLimited', seconds: 1 });
  });

  it("shows the server's message for 10000 and other refusals", () => {
    expect(classifyLoginError(err(10000, null, 200, 'wrong username or password'))).toEqual({
      kind: 'message',
      text: 'wrong username or password',
    });
  });

  it('has no message for network failures and non-API errors', () => {
    expect(classifyLoginError(err(0, null, 0, 'network'))).toEqual({ kind: 'failed' });
    expect(classifyLoginError(new Error('x'))).toEqual({ kind: 'failed' });
  });
});

describe('continueLogin', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('keeps the temporary token in sessionStorage, never in the path', () => {
    const to = continueLogin(
      { kind: 'setup', to: '/pass-reset', tempToken: 'secret-token' },
      'newbie',
      '/login-c',
    );
    expect(to).toBe('/pass-reset');
    expect(to).not.toContain('secret-token');
    expect(flowStorage.tempFlow('setup')).toEqual({
      purpose: 'setup',
      tempToken: 'secret-token',
      username: 'newbie',
      from: '/login-c',
    });
    expect(flowStorage.tempFlow('update')).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain('secret-token');
  });

  it('keeps the transfer authorization and the new username', () => {
    expect(
      continueLogin(
        {
          kind: 'transfer',
          to: '/account-transfer',
          transferAuthorization: 'ta',
          newUsername: 'n2',
        },
        'old',
        '/login-b',
      ),
    ).toBe('/account-transfer');
    expect(flowStorage.transferFlow()).toEqual({
      transferAuthorization: 'ta',
      newUsername: 'n2',
      from: '/login-b',
    });
  });

  it('stays on the login page for the other outcomes', () => {
    expect(continueLogin({ kind: 'locked', until: null }, 'u', '/login-c')).toBeNull();
    expect(continueLogin({ kind: 'message', text: 'x' }, 'u', '/login-c')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });
});
