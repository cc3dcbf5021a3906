import { describe, expect, it } from 'vitest';
import { canExport } from './exportRights';

// The default codes of each role (api/src/permissions.rs `default_codes`), abridged.
const OPERATOR = [
  'declarations:management',
  'clearance:management',
  'customers:management',
  'customers:create',
  'customers:maintain',
];
const ADMIN = [
  ...OPERATOR,
  'staff:management',
  'roles:management',
  'audit:read',
  'declarations:export',
];
const COMPLIANCE = ['audit:read', 'audit:export'];

describe('canExport', () => {
  it('offers an operator no export at all', () => {
    expect(canExport('declarations', 'OPERATOR', OPERATOR)).toBe(false);
    expect(canExport('exceptions', 'OPERATOR', OPERATOR)).toBe(false);
    expect(canExport('auditLog', 'OPERATOR', OPERATOR)).toBe(false);
  });

  it('offers an admin the declaration and exception exports, not the raw audit log', () => {
    expect(canExport('declarations', 'ADMIN', ADMIN)).toBe(true);
    expect(canExport('exceptions', 'ADMIN', ADMIN)).toBe(true);
    expect(canExport('auditLog', 'ADMIN', ADMIN)).toBe(false);
    expect(canExport('auditLog', 'ADMIN', [...ADMIN, 'audit:export'])).toBe(true);
  });

  it('needs clearance:management for the exception export, even for an admin', () => {
    expect(canExport('exceptions', 'SUPER_ADMIN', ['staff:management'])).toBe(false);
    expect(canExport('exceptions', 'SUPER_ADMIN', ['clearance:management'])).toBe(true);
  });

  it('offers the compliance reviewer the audit export only', () => {
    expect(canExport('auditLog', 'COMPLIANCE', COMPLIANCE)).toBe(true);
    expect(canExport('declarations', 'COMPLIANCE', COMPLIANCE)).toBe(false);
    expect(canExport('exceptions', 'COMPLIANCE', [...COMPLIANCE, 'clearance:management'])).toBe(
      false,
    );
  });

  it('follows declarations:export for the declaration report, not the role', () => {
    expect(canExport('declarations', 'ADMIN', OPERATOR)).toBe(false);
    expect(canExport('declarations', 'OPERATOR', [...OPERATOR, 'declarations:export'])).toBe(true);
  });

  it('offers nothing without a session', () => {
    expect(canExport('declarations', null, [])).toBe(false);
    expect(canExport('auditLog', null, [])).toBe(false);
  });
});
