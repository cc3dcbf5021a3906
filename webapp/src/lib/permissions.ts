// Permission checks for elements (spec 5, "Permission directive") and route tags.
import type { PermissionCode } from './permissions.generated';
import { useSessionStore } from './session';

// The codes come from the server's list only (permissions.generated.ts), so a check of a
// code the server does not know fails to type-check.
export type { PermissionCode };

/** True when `held` contains `code`, or any of the list when `code` is a list. */
export function hasPermission(held: readonly string[], code: string | readonly string[]): boolean {
  const wanted = typeof code === 'string' ? [code] : code;
  if (wanted.length === 0) return true;
  return wanted.some((c) => held.includes(c));
}

export function usePermission(code: PermissionCode | readonly PermissionCode[]): boolean {
  const held = useSessionStore((s) => s.permissions);
  return hasPermission(held, code);
}

/**
 * Where a user lacking a route's permission tag is sent. The spec leaves the fallback
 * paths unnamed; every tag falls back to /403 until one is defined here.
 */
export const PERMISSION_FALLBACKS: Readonly<Record<string, string>> = {};

export function permissionFallback(tag: string): string {
  return PERMISSION_FALLBACKS[tag] ?? '/403';
}
