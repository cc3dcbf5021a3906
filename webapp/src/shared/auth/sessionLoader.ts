// What the guard fetches once per page load for a signed-in user (spec 2.2): the role when
// unknown, then permission codes and the staff profile (staff) or the profile with its
// lock flag and the bound Easy-clear ID (customer).
import { queryClient } from '@/lib/queryClient';
import { normalizeRole } from '@/lib/roles';
import { sessionActions } from '@/lib/session';
import { storage } from '@/lib/storage';
import { customerProfileQueryOptions, getCustomerProfile } from '@/shared/auth/api/customerProfile';
import { getSession, type SessionInfo } from '@/shared/auth/api/session';
import { firstRole, staffProfileQueryOptions } from '@/shared/auth/api/staffProfile';
import { getUpsId } from '@/shared/auth/api/upsId';
import { getUserPermissions } from '@/shared/auth/api/userPermissions';

/** The spec's `isEasyClearIdLogin`: signed in with the bound Easy-clear ID as the name. */
function rememberHowSignedIn(info: SessionInfo): void {
  if (info.easyClearIdLogin === true) storage.set('isEasyClearIdLogin', 'true');
  else storage.remove('isEasyClearIdLogin');
}

export function isEasyClearIdLogin(): boolean {
  return storage.get('isEasyClearIdLogin') === 'true';
}

export async function loadSession(): Promise<void> {
  const session = sessionActions.get();
  let role = session.role;
  if (!role) {
    const info = await getSession();
    role = normalizeRole(info.role);
    if (!role) throw new Error(`unknown role ${String(info.role)}`);
    rememberHowSignedIn(info);
    session.setRole(role);
    session.setUserInfo({
      userName: info.username,
      displayName: info.displayName,
      isLocked: false,
    });
  }
  if (role === 'CUSTOMER') {
    // Signed in with the bound ID: the spec skips the ups-id call (the profile has the ID).
    const byEasyClearId = isEasyClearIdLogin();
    const [profile, upsId] = await Promise.all([
      getCustomerProfile({ hideErrorMessage: true }),
      byEasyClearId ? null : getUpsId({ hideErrorMessage: true }),
    ]);
    queryClient.setQueryData(customerProfileQueryOptions().queryKey, profile);
    session.setUserInfo({
      userName: profile.username,
      displayName: profile.username,
      department: profile.companyName,
      email: profile.email,
      isLocked: Boolean(profile.isLocked),
    });
    const bound = byEasyClearId ? profile.upsId : upsId;
    if (bound) storage.set('upsId', bound);
    else storage.remove('upsId');
    session.setPermissions([]);
  } else {
    const [permissions, staff] = await Promise.all([
      getUserPermissions({ hideErrorMessage: true }),
      queryClient.fetchQuery(staffProfileQueryOptions()),
    ]);
    session.setPermissions(permissions.map((p) => p.permissionCode));
    storage.setJson('staffInfo', staff);
    storage.set('isB', 'true');
    const previous = sessionActions.get().userinfo;
    session.setUserInfo({
      userName: previous?.userName ?? staff.staffId,
      displayName: staff.staffName ?? previous?.displayName,
      department: firstRole(staff),
      email: staff.staffEmail,
      isLocked: false,
    });
  }
  session.setLoaded(true);
}

/**
 * After a successful login: ask GET /api/v1/session who the token belongs to, then store
 * role, user and token together, the token last, so the guard never sees a token without
 * its role (it would redirect while the login page navigates, leaving a blank page).
 */
export async function completeLogin(token: string): Promise<void> {
  const info = await getSession(token);
  const role = normalizeRole(info.role);
  if (!role) throw new Error(`unknown role ${String(info.role)}`);
  const session = sessionActions.get();
  session.clear();
  queryClient.clear();
  rememberHowSignedIn(info);
  session.setRole(role);
  session.setUserInfo({ userName: info.username, displayName: info.displayName, isLocked: false });
  session.setToken(token);
}
