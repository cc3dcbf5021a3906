// A new declaration starts from the customer's profile: port, SLIC and the company fill the
// empty fields once, and the form says which; an existing declaration is left alone.
import { screen, waitFor } from '@testing-library/react';
import { useForm } from '@mantine/form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { toFormValues, type DeclarationFormValues } from '@/shared/declarations/model/formValues';
import { useStartingDefaults } from '../components/useStartingDefaults';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
      const data =
        url.pathname === '/api/v1/customer/profile'
          ? {
              username: 'acme',
              companyName: 'ACME Trading',
              portCode: 'PVG',
              slicCode: 'SHA01',
              isLocked: false,
            }
          : null;
      return new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function Harness({ isNew, type, slic }: { isNew: boolean; type: 'OC' | 'IC'; slic?: string }) {
  const initialValues = toFormValues(undefined);
  if (slic) initialValues.slic = slic;
  const form = useForm<DeclarationFormValues>({ initialValues });
  const defaults = useStartingDefaults(form, type, { isNew, staff: false, customerId: '' });
  const v = form.getValues();
  return (
    <div>
      <span data-testid="values">
        {[v.port, v.slic, v.shipperCompany, v.recipientCompany].join('|')}
      </span>
      <span data-testid="filled">{defaults?.filled.map((f) => f.field).join(',') ?? 'none'}</span>
    </div>
  );
}

describe('starting a declaration from the profile', () => {
  it("fills an export's port, SLIC and shipper company and says so", async () => {
    renderWithProviders(<Harness isNew type="OC" />);
    await waitFor(() =>
      expect(screen.getByTestId('values').textContent).toBe('PVG|SHA01|ACME Trading|'),
    );
    expect(screen.getByTestId('filled').textContent).toBe('port,slic,shipperCompany');
  });

  it("fills an import's recipient company and keeps what is already there", async () => {
    renderWithProviders(<Harness isNew type="IC" slic="CAN01" />);
    await waitFor(() =>
      expect(screen.getByTestId('values').textContent).toBe('PVG|CAN01||ACME Trading'),
    );
    expect(screen.getByTestId('filled').textContent).toBe('port,recipientCompany');
  });

  it('leaves an existing declaration alone', async () => {
    renderWithProviders(<Harness isNew={false} type="OC" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('values').textContent).toBe('|||');
    expect(screen.getByTestId('filled').textContent).toBe('none');
  });
});
