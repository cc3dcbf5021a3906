// The path of one customer, shared by its command endpoints.
export const customerPath = (id: string) => `/api/v1/customers/${encodeURIComponent(id)}`;

/** `If-Match` when the caller knows the version it saw; none otherwise. */
export const ifMatchSeen = (version: number | undefined): Record<string, string> =>
  version === undefined ? {} : { 'If-Match': String(version) };
