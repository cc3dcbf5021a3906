// What the sign-in flows carry from one page to the next. Secrets of a flow (temporary
// tokens, the transfer authorization, the single sign-on state and PKCE verifier) live in
// sessionStorage: this tab only, gone when it closes, never in a URL. Keys are prefixed with
// the API host like the rest of the app's storage (lib/storage.ts).
import { apiHost } from '@/config';

/** Where the flow started: the page to return to. */
export type LoginPage = '/login-c' | '/login-b';

/** 10002 (first password) or 10003 (required new password). */
export interface TempTokenFlow {
  purpose: 'setup' | 'update';
  tempToken: string;
  username: string;
  from: LoginPage;
}

/** 10004: the account moved to a new login. */
export interface TransferFlow {
  transferAuthorization: string;
  newUsername: string;
  from: LoginPage;
}

/** A started single sign-on (POST /api/v1/sso/start). */
export interface SsoFlow {
  state: string;
  codeVerifier: string;
}

/** A note for the login page after a flow ended there (a set password, a moved login). */
export interface LoginNotice {
  /** i18n key of the message. */
  messageKey: string;
  username?: string;
}

type SessionKey = 'tempFlow' | 'transferFlow' | 'ssoFlow' | 'loginNotice';
/** Survives a reload of any tab: this session was opened through single sign-on. */
type LocalKey = 'ssoSession';

function key(name: SessionKey | LocalKey): string {
  return `${apiHost}-${name}`;
}

function area(kind: 'session' | 'local'): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

function read<T>(name: SessionKey): T | null {
  const raw = area('session')?.getItem(key(name));
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function write(name: SessionKey, value: unknown): void {
  area('session')?.setItem(key(name), JSON.stringify(value));
}

function remove(name: SessionKey): void {
  area('session')?.removeItem(key(name));
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

export const flowStorage = {
  tempFlow(purpose?: TempTokenFlow['purpose']): TempTokenFlow | null {
    const flow = read<TempTokenFlow>('tempFlow');
    if (!flow || !isString(flow.tempToken)) return null;
    return !purpose || flow.purpose === purpose ? flow : null;
  },
  setTempFlow(flow: TempTokenFlow): void {
    write('tempFlow', flow);
  },
  clearTempFlow(): void {
    remove('tempFlow');
  },

  transferFlow(): TransferFlow | null {
    const flow = read<TransferFlow>('transferFlow');
    return flow && isString(flow.transferAuthorization) && isString(flow.newUsername) ? flow : null;
  },
  setTransferFlow(flow: TransferFlow): void {
    write('transferFlow', flow);
  },
  clearTransferFlow(): void {
    remove('transferFlow');
  },

  ssoFlow(): SsoFlow | null {
    const flow = read<SsoFlow>('ssoFlow');
    return flow && isString(flow.state) && isString(flow.codeVerifier) ? flow : null;
  },
  setSsoFlow(flow: SsoFlow): void {
    write('ssoFlow', flow);
  },
  clearSsoFlow(): void {
    remove('ssoFlow');
  },

  /** The login page shows it once, then clears it. */
  loginNotice(): LoginNotice | null {
    const notice = read<LoginNotice>('loginNotice');
    return notice && isString(notice.messageKey) ? notice : null;
  },
  clearLoginNotice(): void {
    remove('loginNotice');
  },
  setLoginNotice(notice: LoginNotice): void {
    write('loginNotice', notice);
  },

  isSsoSession(): boolean {
    return area('local')?.getItem(key('ssoSession')) === 'true';
  },
  setSsoSession(on: boolean): void {
    if (on) area('local')?.setItem(key('ssoSession'), 'true');
    else area('local')?.removeItem(key('ssoSession'));
  },

  /** Whether /pass-reset has what it needs: a 10002 token or a mailed link's token. */
  hasTempToken(): boolean {
    return flowStorage.tempFlow('setup') !== null;
  },
};
