// The declaration screens live in src/features/declarations/pages/ (see the README there).
// Each route below names the page file it wants; until that file exists the route shows
// a placeholder, so the shell builds and runs before the screens are written.
import { lazy, type ComponentType } from 'react';
import type { PageComponent } from '@/shared/routing/types';

const pages = import.meta.glob<{ default: ComponentType }>(
  '../../features/declarations/pages/*.tsx',
);

export type DeclarationPageName =
  | 'DeclarationListPage'
  | 'DeclarationDetailPage'
  | 'DeclarationFormPage'
  | 'StatusQueryPage'
  | 'AllDeclarationsPage'
  | 'DeclarationRecordsPage'
  | 'DeclarationPdfPage';

const cache = new Map<string, PageComponent>();

export function declarationPage(name: DeclarationPageName): PageComponent {
  const cached = cache.get(name);
  if (cached) return cached;
  const loader = pages[`../../features/declarations/pages/${name}.tsx`];
  const component = lazy(loader ?? (() => import('@/features/placeholder/pages/PlaceholderPage')));
  cache.set(name, component);
  return component;
}
