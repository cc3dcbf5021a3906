// What /auth-redirect (or /azure-redirect) was given by the identity provider, checked
// against the sign-in this tab started (docs/sso.md).
import type { SsoFlow } from '@/shared/auth/flowStorage';

export type SsoRedirect =
  /** No provider parameters: the plain landing redirect. */
  | { kind: 'none' }
  /** The provider refused or the user cancelled (`error`, `error_description`). */
  | { kind: 'providerError'; error: string; description: string | null }
  /** No started sign-in in this tab, or another one's state: never sent to the server. */
  | { kind: 'stateMismatch' }
  | { kind: 'callback'; code: string; state: string; codeVerifier: string };

export function readSsoRedirect(search: string, started: SsoFlow | null): SsoRedirect {
  const params = new URLSearchParams(search);
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error');
  if (error) {
    return { kind: 'providerError', error, description: params.get('error_description') };
  }
  if (!code && !state) return { kind: 'none' };
  if (!code || !state || !started || started.state !== state) return { kind: 'stateMismatch' };
  return { kind: 'callback', code, state, codeVerifier: started.codeVerifier };
}

/** The address the provider sends the browser back to (registered at the provider). */
export function ssoRedirectUri(origin: string = window.location.origin): string {
  return `${origin}/auth-redirect`;
}
