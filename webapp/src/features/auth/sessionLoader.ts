// What the guard fetches once per page load for a signed-in user (spec 2.2): the role when
// unknown, then permission codes and the staff profile (staff) or the profile with its
// lock flag (customer).
import { queryClient } from '@/lib/queryClient';
import { normalizeRole } from '@/lib/roles';
import { sessionActions } from '@/lib/session';
import { storage } from '@/lib/storage';
import { getCustomerProfile } from './api/customerProfile';
import { getSession } from './api/session';
import { firstRole, staffProfileQueryOptions } from './api/staffProfile';
import { getUserPermissions } from './api/userPermissions';

export async function loadSession(): Promise<void> {
  const session = sessionActions.get();
  let role = session.role;
  if (!role) {
    const info = await getSession();
    role = normalizeRole(info.role);
    if (!role) throw new Error(`unknown role ${String(info.role)}`);
    session.setRole(role);
    session.setUserInfo({
      userName: info.username,
      displayName: info.displayName,
      isLocked: false,
    });
  }
  if (role === 'CUSTOMER') {
    const profile = await getCustomerProfile({ hideErrorMessage: true });
    queryClient.setQueryData(['auth', 'customer-profile'], profile);
    session.setUserInfo({
      userName: profile.username,
      displayName: profile.username,
      department: profile.companyName,
      email: profile.email,
      isLocked: Boolean(profile.isLocked),
    });
    if (profile.upsId) storage.set('upsId', profile.upsId);
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

/** After a successful login: store the token, then the role from GET /api/v1/session. */
export async function completeLogin(token: string): Promise<void> {
  const session = sessionActions.get();
  session.clear();
  session.setToken(token);
  const info = await getSession();
  const role = normalizeRole(info.role);
  if (!role) throw new Error(`unknown role ${String(info.role)}`);
  session.setRole(role);
  session.setUserInfo({ userName: info.username, displayName: info.displayName, isLocked: false });
  queryClient.clear();
}
