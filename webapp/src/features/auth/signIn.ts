// Signing in right after a flow set the password (first password, required update,
// transfer): the page has the username and the new password, so the user does not type them
// again. When the server asks for something else, the login page takes over with a note.
import { flowStorage } from '@/shared/auth/flowStorage';
import { login } from '@/shared/auth/api/login';
import { completeLogin } from '@/shared/auth/sessionLoader';

/** Resolves true when signed in; false when the user must sign in on the login page. */
export async function signInAfterFlow(
  username: string,
  password: string,
  noticeKey: string,
): Promise<boolean> {
  try {
    const token = await login({ username, password });
    flowStorage.setSsoSession(false);
    await completeLogin(token);
    return true;
  } catch {
    flowStorage.setLoginNotice({ messageKey: noticeKey, username });
    return false;
  }
}
