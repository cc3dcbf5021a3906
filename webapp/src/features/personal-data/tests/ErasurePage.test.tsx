import { ModalsProvider } from '@mantine/modals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import ErasurePage from '@/features/personal-data/pages/ErasurePage';

const envelope = (status: number, data: unknown, message = 'ok') =>
  new Response(JSON.stringify({ code: status, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let bodies: unknown[] = [];
let answer: () => Response;

beforeEach(async () => {
  bodies = [];
  await i18n.changeLanguage('en');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      expect(url.pathname).toBe('/api/v1/admin/data-subjects/erase');
      bodies.push(JSON.parse(String(init?.body)));
      return answer();
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const render = () =>
  renderWithProviders(<ErasurePage />, (ui) => <ModalsProvider>{ui}</ModalsProvider>);

const fill = (subject: string, reason = '') => {
  fireEvent.change(
    screen.getByLabelText(/ID number, phone number, e-mail, WeChat id or subject id/),
    {
      target: { value: subject },
    },
  );
  if (reason) fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: reason } });
};

// Mantine's modal transitions are slow on a loaded machine.
describe('ErasurePage', { timeout: 20_000 }, () => {
  it('asks for confirmation, erases, and shows the subject id and the declarations', async () => {
    answer = () =>
      envelope(200, {
        id: 's',
        version: 1,
        position: 42,
        subject: 'ds_00112233445566778899aabbccddeeff',
        streams: 2,
      });
    render();
    fill(' 110101199001011234 ', 'request 17');
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/cannot be recovered/)).toBeTruthy();
    expect(bodies).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    await screen.findByText('ds_00112233445566778899aabbccddeeff');
    expect(
      screen.getByText(
        /2 record\(s\) \(declarations, clearance exceptions, contact books\) held this value/,
      ),
    ).toBeTruthy();
    expect(bodies).toEqual([{ subject: '110101199001011234', reason: 'request 17' }]);
  });

  it('does not send an empty subject and names the field', async () => {
    answer = () => envelope(200, {});
    render();
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    expect(
      await screen.findByText(
        'Enter an ID number, a phone number, an e-mail address, a WeChat id or a subject id',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodies).toHaveLength(0);
  });

  it('says so when nothing is stored for the number or it is already erased', async () => {
    answer = () => envelope(404, null, 'not found');
    render();
    fill('13000000000');
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Erase' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('No personal data of this value'),
    );
    answer = () => envelope(409, null, 'conflict');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Erase' }),
    );
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('already erased'));
  });
});
