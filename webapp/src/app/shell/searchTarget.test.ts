import { describe, expect, it } from 'vitest';
import { searchTarget } from './searchTarget';

describe('the header search', () => {
  it("leads customers and staff to the shipment's declarations, the reviewer to the log", () => {
    expect(searchTarget('CUSTOMER', '1Z999AA10123456784')).toBe(
      '/find?trackingNumber=1Z999AA10123456784',
    );
    expect(searchTarget('OPERATOR', 'CW12345678')).toBe('/find?trackingNumber=CW12345678');
    expect(searchTarget('COMPLIANCE', 'CW12345678')).toBe(
      '/compliance/log?trackingNumber=CW12345678',
    );
  });
});
