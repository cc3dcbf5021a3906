import { useMutation } from '@tanstack/react-query';
import { ApiError, request } from '@/lib/request';
import { flowStorage, type LoginPage } from '@/shared/auth/flowStorage';

export interface LoginInput {
  username: string;
  password: string;
}

/** POST /auth/login, form-encoded (the contract). Resolves with the token. */
export function login(input: LoginInput): Promise<string> {
  return request<string>('/auth/login', {
    method: 'POST',
    form: { username: input.username, password: input.password },
    // The login page shows the failure itself (spec 7: default error message hidden).
    hideErrorMessage: true,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/** What a failed sign-in means for the page (docs/identity.md, `POST /auth/login`). */
export type LoginOutcome =
  | { kind: 'setup'; to: '/pass-reset'; tempToken: string }
  | { kind: 'update'; to: '/pass-update'; tempToken: string }
  | {
      kind: 'transfer';
      to: '/account-transfer';
      transferAuthorization: string;
      newUsername: string;
    }
  /** 10006: locked until an instant (ISO text), when the server said it. */
  | { kind: 'locked'; until: string | null }
  /** HTTP 429 (code 207): retry after that many seconds. */
  | { kind: 'rateLimited'; seconds: number }
  /** 10000 and anything else with a message from the server. */
  | { kind: 'message'; text: string }
  /** No usable answer (network, a code without its data). */
  | { kind: 'failed' };

const RATE_LIMITED_CODE = 207;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Pure: the outcome of a failed `login` call. */
export function classifyLoginError(error: unknown): LoginOutcome {
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  const data = (error.data ?? {}) as Record<string, unknown>;
  switch (error.code) {
    case 10002: {
      const tempToken = text(data.tempToken);
      return tempToken ? { kind: 'setup', to: '/pass-reset', tempToken } : { kind: 'failed' };
    }
    case 10003: {
      const tempToken = text(data.tempToken);
      return tempToken ? { kind: 'update', to: '/pass-update', tempToken } : { kind: 'failed' };
    }
    case 10004: {
      const transferAuthorization = text(data.transferAuthorization);
      const newUsername = text(data.newUsername);
      return transferAuthorization && newUsername
        ? { kind: 'transfer', to: '/account-transfer', transferAuthorization, newUsername }
        : { kind: 'failed' };
    }
    case 10006:
      return { kind: 'locked', until: text(data.lockedUntil) };
    default:
      break;
  }
  if (error.status === 429 || error.code === RATE_LIMITED_CODE) {
    const seconds = Number(data.retryAfter);
    return { kind: 'rateLimited', seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 1 };
  }
  if (error.status === 0 || error.code === 408) return { kind: 'failed' };
  return error.message ? { kind: 'message', text: error.message } : { kind: 'failed' };
}

/**
 * Keeps what the next page needs (sessionStorage, never the URL) and answers where to go,
 * or null when the outcome stays on the login page.
 */
export function continueLogin(
  outcome: LoginOutcome,
  username: string,
  from: LoginPage,
): string | null {
  switch (outcome.kind) {
    case 'setup':
    case 'update':
      flowStorage.clearTransferFlow();
      flowStorage.setTempFlow({
        purpose: outcome.kind,
        tempToken: outcome.tempToken,
        username,
        from,
      });
      return outcome.to;
    case 'transfer':
      flowStorage.clearTempFlow();
      flowStorage.setTransferFlow({
        transferAuthorization: outcome.transferAuthorization,
        newUsername: outcome.newUsername,
        from,
      });
      return outcome.to;
    default:
      return null;
  }
}
