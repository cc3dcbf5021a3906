// Staff choose how long without a receipt counts as held by customs: the card asks the API
// with that threshold, and the choice is remembered in the UI state.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CustomsHoldsPanel } from '../components/CustomsHoldsPanel';
import { DEFAULT_HOLD_THRESHOLD, useHoldsThreshold } from '../model/holdsThreshold';

let calls: URL[] = [];

beforeEach(() => {
  calls = [];
  useHoldsThreshold.setState({ silentHours: DEFAULT_HOLD_THRESHOLD });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(new URL(String(input instanceof Request ? input.url : input), 'http://x'));
      return new Response(
        JSON.stringify({
          code: 200,
          message: 'ok',
          data: { records: [], total: 0, counts: [] },
          refreshed: false,
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const holdsCalls = () => calls.filter((u) => u.pathname === '/api/v1/customs/holds');

describe('the held-by-customs threshold', () => {
  it('starts at 24 h, asks again with the threshold picked, and remembers it', async () => {
    const view = renderWithProviders(
      <MemoryRouter>
        <CustomsHoldsPanel />
      </MemoryRouter>,
    );
    await waitFor(() => expect(holdsCalls().length).toBe(1));
    expect(holdsCalls()[0].searchParams.get('silentHours')).toBe('24');

    const input = document.querySelector<HTMLInputElement>('input:not([type=hidden])')!;
    fireEvent.click(input);
    fireEvent.click(await screen.findByRole('option', { name: /7/, hidden: true }));
    await waitFor(() =>
      expect(holdsCalls().some((u) => u.searchParams.get('silentHours') === '168')).toBe(true),
    );
    expect(useHoldsThreshold.getState().silentHours).toBe(168);

    // Back on the page later: the choice stands.
    view.unmount();
    renderWithProviders(
      <MemoryRouter>
        <CustomsHoldsPanel />
      </MemoryRouter>,
    );
    const again = document.querySelector<HTMLInputElement>('input:not([type=hidden])')!;
    expect(again.value).toMatch(/7/);
  });

  it('ignores a threshold it does not offer', () => {
    useHoldsThreshold.getState().setSilentHours(5);
    expect(useHoldsThreshold.getState().silentHours).toBe(DEFAULT_HOLD_THRESHOLD);
    useHoldsThreshold.getState().setSilentHours(4);
    expect(useHoldsThreshold.getState().silentHours).toBe(4);
  });
});
