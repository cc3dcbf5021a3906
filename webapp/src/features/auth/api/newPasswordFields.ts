// The two fields every password flow form sends (docs/identity.md); each endpoint adds its
// token. The flows are public (rate limited by the server) and show failures on the page.
export interface NewPasswordFields {
  newPassword: string;
  confirmNewPassword: string;
}
