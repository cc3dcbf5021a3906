/** Spec 9: a link is external if it starts with http, https, mailto or tel. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

/** Joins a parent route path and a child path: ('/a', 'b') -> '/a/b'; absolute children stay. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  if (child === '') return parent || '/';
  const base = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return `${base}/${child}`;
}
