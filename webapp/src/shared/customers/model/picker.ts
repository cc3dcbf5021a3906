// Labels of the customer pickers.
export interface CustomerLabelSource {
  username: string;
  companyName?: string | null;
}

/** "acme · ACME Trading Co." (or the username alone). */
export function customerOptionLabel(c: CustomerLabelSource): string {
  return c.companyName ? `${c.username} · ${c.companyName}` : c.username;
}
