/** Leaving the app for another site (the identity provider); a seam for tests. */
export const browser = {
  go: (url: string) => window.location.assign(url),
};
