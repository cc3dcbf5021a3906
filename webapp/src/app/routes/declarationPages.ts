// The declaration screens live in src/features/declarations/pages/ (see the README there).
// Each route names the page it wants; every name maps to its file here, so a missing page
// is a build error, never a page that only says "coming soon".
import { lazy, type ComponentType } from 'react';
import type { PageComponent } from '@/shared/routing/types';

type Loader = () => Promise<{ default: ComponentType }>;

const PAGES = {
  DeclarationListPage: () => import('@/features/declarations/pages/DeclarationListPage'),
  DeclarationDetailPage: () => import('@/features/declarations/pages/DeclarationDetailPage'),
  DeclarationFormPage: () => import('@/features/declarations/pages/DeclarationFormPage'),
  StatusQueryPage: () => import('@/features/declarations/pages/StatusQueryPage'),
  AllDeclarationsPage: () => import('@/features/declarations/pages/AllDeclarationsPage'),
  DeclarationRecordsPage: () => import('@/features/declarations/pages/DeclarationRecordsPage'),
  DeclarationPdfPage: () => import('@/features/declarations/pages/DeclarationPdfPage'),
} satisfies Record<string, Loader>;

export type DeclarationPageName = keyof typeof PAGES;

const cache = new Map<string, PageComponent>();

export function declarationPage(name: DeclarationPageName): PageComponent {
  const cached = cache.get(name);
  if (cached) return cached;
  const component = lazy(PAGES[name]);
  cache.set(name, component);
  return component;
}
