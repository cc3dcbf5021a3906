import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { hasPermission } from '@/lib/permissions';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import { Permission } from './Permission';

describe('hasPermission', () => {
  it('checks one code or any of a list', () => {
    expect(hasPermission(['a'], 'a')).toBe(true);
    expect(hasPermission(['a'], 'b')).toBe(false);
    expect(hasPermission(['a'], ['b', 'a'])).toBe(true);
    expect(hasPermission([], ['b', 'c'])).toBe(false);
  });
});

describe('<Permission>', () => {
  beforeEach(() => useSessionStore.setState({ permissions: ['customers:create'] }));

  it('renders children only for a held code', () => {
    renderWithProviders(
      <>
        <Permission code="customers:create">
          <button>create</button>
        </Permission>
        <Permission code={['customers:delete', 'staff:delete']}>
          <button>delete</button>
        </Permission>
      </>,
    );
    expect(screen.getByRole('button', { name: 'create' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
  });
});
