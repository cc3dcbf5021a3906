import type { ReactNode } from 'react';
import { usePermission, type PermissionCode } from '@/lib/permissions';

export interface PermissionProps {
  /** One code, or a list of which any one suffices. */
  code: PermissionCode | readonly PermissionCode[];
  children: ReactNode;
  /** Rendered instead when the user lacks the code (default: nothing, like the directive). */
  fallback?: ReactNode;
}

/** Spec 5 "Permission directive": the element is removed unless the user holds the code. */
export function Permission({ code, children, fallback = null }: PermissionProps) {
  return usePermission(code) ? <>{children}</> : <>{fallback}</>;
}
