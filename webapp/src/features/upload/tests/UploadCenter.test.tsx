import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { renderWithProviders } from '@/test/render';
import { UploadCenter } from '../components/UploadCenter';
import { useUploadStore } from '../model/uploadStore';

let unread = 0;
let history: unknown[] = [];
const confirmed: string[] = [];
const record = {
  id: 'u-1',
  fileOriginName: 'batch.xlsx',
  createTime: '2026-11-25T08:00:00+08:00',
  type: 'OC',
  isRowData: true,
  isFixed: true,
  ticketSuccess: 3,
  success: 3,
  repeat: 1,
  abnormal: 1,
  confirm: false,
  status: '2',
  logDetail: '{"abnormal":1,"repeat":1}',
  total: 5,
  done: 5,
};

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, message: 'ok', data }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

beforeEach(() => {
  unread = 0;
  history = [];
  confirmed.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/un/confirm/num')) return answer(unread);
      if (url.pathname.includes('/upload/confirm/')) {
        confirmed.push(url.pathname.split('/').pop() ?? '');
        unread = 0;
        return answer({ id: 'u-1', version: 2, position: 9 });
      }
      if (url.pathname.includes('/history/detail/')) {
        return answer({
          ...record,
          total: 2,
          logDetailList: [
            { row: 5, trackingNumber: '1Z1', fileName: null, desc: 'exists', isRepeat: true },
            { row: 6, trackingNumber: '1Z2', fileName: null, desc: 'bad', isRepeat: false },
          ],
          logFileDetailList: null,
        });
      }
      void init;
      if (url.pathname.endsWith('/upload/query/log/history'))
        return answer({ records: history, total: history.length });
      return answer({ records: [], total: 0 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useUploadStore.setState({ resultId: null, bannerOpen: false, records: [], historyOpen: false });
});

vi.setConfig({ testTimeout: 20_000 });

describe('UploadCenter', () => {
  it('hides the badge at 0 and caps it at 9', async () => {
    unread = 12;
    renderWithProviders(<UploadCenter enabled />);
    expect(await screen.findByText('9+')).toBeTruthy();
  });

  it('shows nothing when the user may not upload', () => {
    const { container } = renderWithProviders(<UploadCenter enabled={false} />);
    expect(container.querySelector('button')).toBeNull();
  });

  it('shows the banner counts and opening the result marks it read', async () => {
    unread = 1;
    useUploadStore.setState({ records: [record as never], bannerOpen: true });
    renderWithProviders(
      <MemoryRouter>
        <UploadCenter enabled />
      </MemoryRouter>,
    );
    // Counted in declarations, not only rows, with the drafts one click away.
    expect(await screen.findByText(/5.*3 份报关单草稿.*1.*1/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '打开草稿并提交' })).toHaveAttribute(
      'href',
      '/customs-clearance/export/export-c?status=0',
    );
    fireEvent.click(screen.getByRole('button', { name: /查看结果|View result/ }));
    await waitFor(() => expect(confirmed).toEqual(['u-1']));
    expect(await screen.findByText('bad')).toBeTruthy();
    // The result names the declaration type, not its code.
    const result = screen.getByRole('dialog', { name: '上传结果' });
    expect(within(result).getByText('出口 C类')).toBeTruthy();
    expect(within(result).queryByText('OC')).toBeNull();
  });

  it('names the declaration type in the history and in its filter', async () => {
    history = [record, { ...record, id: 'u-2', fileOriginName: 'import.xlsx', type: 'ID' }];
    useUploadStore.setState({ historyOpen: true });
    renderWithProviders(
      <MemoryRouter>
        <UploadCenter enabled />
      </MemoryRouter>,
    );
    // (Queries by role and name are slow over a whole drawer in jsdom: find by text.)
    const drawer = (await screen.findByText('import.xlsx')).closest(
      '[role="dialog"]',
    ) as HTMLElement;
    expect(within(drawer).getByText(/· 出口 C类 ·/)).toBeTruthy();
    // Upload times on the Beijing clock, whatever the browser's zone.
    expect(within(drawer).getAllByText(/^2026-11-25 08:00 ·/)).toHaveLength(2);
    expect(within(drawer).getByText(/· 进口 D类 ·/)).toBeTruthy();
    expect(within(drawer).queryByText(/· OC ·/)).toBeNull();
    fireEvent.click(within(drawer).getByPlaceholderText('申报类型'));
    expect(await screen.findByText('出口 B类（OB）')).toBeTruthy();
    expect(screen.getByText('进口 D类（ID）')).toBeTruthy();
  });
});
