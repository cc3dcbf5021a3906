// The signed-in identity: token, role, user info and permission codes. Mirrored into the
// host-prefixed storage keys of spec 3 so a reload keeps the session; `loaded` is per page
// load (the guard fetches permissions and the profile once, then sets it).
import { create } from 'zustand';
import { normalizeRole, type Role } from './roles';
import { storage } from './storage';

export interface UserInfo {
  userName: string;
  displayName?: string;
  /** Company name (customer) or first role (staff). */
  department?: string;
  email?: string;
  isLocked: boolean;
}

export interface PreLogoutRequest {
  url: string;
  method: string;
  params?: Record<string, unknown>;
}

export interface SessionState {
  token: string | null;
  role: Role | null;
  userinfo: UserInfo | null;
  permissions: string[];
  loaded: boolean;
  setToken: (token: string | null) => void;
  setRole: (role: Role | null) => void;
  setUserInfo: (info: UserInfo | null) => void;
  setPermissions: (codes: string[]) => void;
  setLoaded: (loaded: boolean) => void;
  /** Forget the identity: memory and storage (preferences are kept). */
  clear: () => void;
}

function initialState() {
  return {
    token: storage.get('token'),
    role: normalizeRole(storage.get('role')),
    userinfo: storage.getJson<UserInfo>('userinfo'),
    permissions: storage.getJson<string[]>('userPermission') ?? [],
    loaded: false,
  };
}

export const useSessionStore = create<SessionState>()((set) => ({
  ...initialState(),
  setToken: (token) => {
    if (token) storage.set('token', token);
    else storage.remove('token');
    set({ token });
  },
  setRole: (role) => {
    if (role) storage.set('role', role);
    else storage.remove('role');
    set({ role });
  },
  setUserInfo: (userinfo) => {
    if (userinfo) storage.setJson('userinfo', userinfo);
    else storage.remove('userinfo');
    set({ userinfo });
  },
  setPermissions: (permissions) => {
    storage.setJson('userPermission', permissions);
    set({ permissions });
  },
  setLoaded: (loaded) => set({ loaded }),
  clear: () => {
    storage.clearSession();
    set({ token: null, role: null, userinfo: null, permissions: [], loaded: false });
  },
}));

/** Re-reads storage (used by tests and after another tab logs in or out). */
export function reloadSessionFromStorage(): void {
  useSessionStore.setState(initialState());
}

export const sessionActions = {
  get: () => useSessionStore.getState(),
  token: () => useSessionStore.getState().token,
  setToken: (token: string | null) => useSessionStore.getState().setToken(token),
  clear: () => useSessionStore.getState().clear(),
};
