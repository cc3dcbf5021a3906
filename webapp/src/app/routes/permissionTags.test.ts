// A route tag the server does not know would hide its page from everyone: every tag of the
// route table must be a code of the server's list (generated from api/src/permissions.rs).
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@/lib/permissions.generated';
import { flattenRoutes } from './flatten';
import { protectedRoutes, publicRoutes } from './routes';

describe('route permission tags', () => {
  it('are all codes the server knows', () => {
    const known = new Set<string>(PERMISSIONS.map((p) => p.code));
    const tags = flattenRoutes([...publicRoutes, ...protectedRoutes])
      .map((r) => r.meta.permissionTag)
      .filter((t): t is string => Boolean(t));
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((t) => !known.has(t))).toEqual([]);
  });
});
