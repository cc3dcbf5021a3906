// Bugs these tests found that are not fixed yet. A test that shows one is marked `todo`
// with the reason: it still runs and prints its failure, but does not fail the run. Set an
// entry to null once the bug is fixed, so the test guards against its return.

export const KNOWN_BUGS = {
  /**
   * After a successful login the app often (about half the time) stops on a blank "/":
   * completeLogin() stores the token before the role, so the guard redirects the login page
   * to "/" -> /auth-redirect while the form then navigates to "/" itself; the two
   * navigations race and the <Navigate> at "/" never fires. (lib/ui.mjs `login` reloads to
   * get past it; the sign-in tests check it strictly.)
   */
  loginBlankRoot:
    'shell bug: after signing in the app often stays on a blank "/" (guard redirect races the login form navigate)',
};

/** Test options marking a test as showing a known bug (or nothing once it is fixed). */
export function knownBug(key) {
  const reason = KNOWN_BUGS[key];
  return reason ? { todo: reason } : {};
}
