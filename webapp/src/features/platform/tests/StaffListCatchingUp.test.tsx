// An answer marked `X-Read-Behind` (the read models had not reached the user's own write
// within the server's wait) is not shown as if current: the page says the list is catching
// up, TanStack Query asks again with back-off, and the row appears once the answer holds it.
import { screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { queryDefaults, readBehindDelay } from '@/lib/queryClient';
import { READ_BEHIND_HEADER, ReadBehindError, requestEnvelope } from '@/lib/request';
import { useSessionStore } from '@/lib/session';
import { ReadBehindNotice } from '@/components/ReadBehindNotice';
import StaffListPage from '@/features/platform/pages/StaffListPage';
import type { StaffRecord } from '@/shared/platform/api/types';

const quinn: StaffRecord = {
  id: 'id-q',
  username: 'quinn.qi@example.com',
  staffId: 'S3001',
  staffEmail: 'quinn.qi@example.com',
  staffName: 'Quinn Qi',
  roleCode: 'OPERATOR',
  roleList: [{ roleCode: 'OPERATOR', sortNo: 3 }],
  status: 'active',
  hasPassword: false,
  createTime: '2026-11-28T12:39:19+08:00',
  createBy: 'admin',
  updateTime: '2026-11-28T12:39:19+08:00',
  updateBy: 'admin',
  version: 1,
};

function answer(data: unknown, behind?: number) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (behind !== undefined) headers[READ_BEHIND_HEADER] = String(behind);
  return new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers,
  });
}

let listCalls = 0;
/** How many list answers are still behind before the current one. */
let behindAnswers = 2;

beforeEach(() => {
  listCalls = 0;
  behindAnswers = 2;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/staff') {
        listCalls += 1;
        if (listCalls <= behindAnswers) return answer({ records: [], total: 0 }, 77);
        return answer({ records: [quinn], total: 1 });
      }
      return answer([]);
    }),
  );
  useSessionStore.setState({
    role: 'ADMIN',
    permissions: ['staff:management'],
    userinfo: { userName: 'admin', isLocked: false },
  });
});

afterEach(async () => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [], userinfo: null });
  await i18n.changeLanguage('zh');
});

function renderList() {
  const client = new QueryClient({ defaultOptions: queryDefaults });
  const router = createMemoryRouter(
    [
      {
        path: '/platform-mgt/employee',
        element: (
          <>
            <ReadBehindNotice />
            <StaffListPage />
          </>
        ),
      },
    ],
    { initialEntries: ['/platform-mgt/employee?keyword=quinn'] },
  );
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

vi.setConfig({ testTimeout: 20_000 });

describe('a list answer that is behind the user’s own write', () => {
  it('says the list is catching up and asks again until the new row is there', async () => {
    await i18n.changeLanguage('en');
    renderList();
    expect(
      await screen.findByText(/The list is catching up with your latest change/),
    ).toBeInTheDocument();
    expect(screen.queryByText('Quinn Qi')).toBeNull();
    await screen.findByText('Quinn Qi', {}, { timeout: 10_000 });
    expect(listCalls).toBe(3);
    await waitFor(() => expect(screen.queryByTestId('read-behind-notice')).toBeNull());
  });

  it('says so in Chinese too', async () => {
    behindAnswers = 1;
    renderList();
    expect(await screen.findByText(/列表正在同步您刚才的修改/)).toBeInTheDocument();
    await screen.findByText('Quinn Qi', {}, { timeout: 10_000 });
    expect(listCalls).toBe(2);
  });

  it('backs off between asks, up to a cap', () => {
    const delays = [0, 1, 2, 3, 10].map(readBehindDelay);
    expect(delays).toEqual([250, 500, 1000, 2000, 8000]);
  });

  it('is thrown by the request client for a GET only, carrying the answer', async () => {
    behindAnswers = 1;
    const error = await requestEnvelope('/api/v1/staff').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadBehindError);
    expect((error as ReadBehindError).position).toBe(77);
    expect((error as ReadBehindError).data).toEqual({ records: [], total: 0 });
    const current = await requestEnvelope<{ total: number }>('/api/v1/staff');
    expect(current.data.total).toBe(1);
  });
});
