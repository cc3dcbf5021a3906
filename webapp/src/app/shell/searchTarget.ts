// Where the header's tracking-number search leads each role.

/** Where a search for `number` goes for `role`. */
export function searchTarget(role: string | null | undefined, number: string): string {
  const q = encodeURIComponent(number);
  return role === 'COMPLIANCE'
    ? `/compliance/log?trackingNumber=${q}`
    : `/find?trackingNumber=${q}`;
}
