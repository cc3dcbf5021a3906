import { describe, expect, it } from 'vitest';
import { readSsoRedirect, ssoRedirectUri } from './ssoRedirect';

const started = { state: 'st-1', codeVerifier: 'v'.repeat(43) };

describe('readSsoRedirect', () => {
  it('is a plain landing redirect without provider parameters', () => {
    expect(readSsoRedirect('', started)).toEqual({ kind: 'none' });
    expect(readSsoRedirect('?x=1', null)).toEqual({ kind: 'none' });
  });

  it('answers the callback with the stored verifier when the state matches', () => {
    expect(readSsoRedirect('?code=c1&state=st-1', started)).toEqual({
      kind: 'callback',
      code: 'c1',
      state: 'st-1',
      codeVerifier: started.codeVerifier,
    });
  });

  it('refuses another state, a missing part, or no sign-in started in this tab', () => {
    expect(readSsoRedirect('?code=c1&state=other', started)).toEqual({ kind: 'stateMismatch' });
    expect(readSsoRedirect('?code=c1', started)).toEqual({ kind: 'stateMismatch' });
    expect(readSsoRedirect('?state=st-1', started)).toEqual({ kind: 'stateMismatch' });
    expect(readSsoRedirect('?code=c1&state=st-1', null)).toEqual({ kind: 'stateMismatch' });
  });

  it("reports the provider's error", () => {
    expect(
      readSsoRedirect('?error=access_denied&error_description=cancelled&state=st-1', started),
    ).toEqual({ kind: 'providerError', error: 'access_denied', description: 'cancelled' });
  });

  it('builds the redirect URI on the given origin', () => {
    expect(ssoRedirectUri('https://clearway.example.com')).toBe(
      'https://clearway.example.com/auth-redirect',
    );
  });
});
