import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { DateRangeFilter, FilterBar, TrackingNumbersFilter } from './FilterBar';

function Bar({ onSearch, onReset }: { onSearch: (v: string) => void; onReset: () => void }) {
  const [value, setValue] = useState('1ZA,1ZB');
  return (
    <FilterBar
      label="filters"
      searchLabel="Search"
      resetLabel="Reset"
      onSearch={() => onSearch(value)}
      onReset={onReset}
    >
      <TrackingNumbersFilter
        label="Tracking"
        placeholder="one a line"
        value={value}
        onChange={setValue}
        onEnter={() => onSearch(value)}
        w={200}
      />
      <DateRangeFilter
        label="Dates"
        placeholder="pick"
        fromDate="20260301"
        toDate="20260310"
        onChange={() => {}}
      />
    </FilterBar>
  );
}

describe('FilterBar', () => {
  it('shows the URL list one a line, searches on Enter but not Shift+Enter, and on submit', () => {
    const onSearch = vi.fn();
    const onReset = vi.fn();
    renderWithProviders(<Bar onSearch={onSearch} onReset={onReset} />);
    const box = screen.getByLabelText('Tracking') as HTMLTextAreaElement;
    expect(box.value).toBe('1ZA\n1ZB');
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: '1ZC' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSearch).toHaveBeenLastCalledWith('1ZC');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('search', { name: 'filters' })).toBeInTheDocument();
  });

  it('shows the date range from YYYYMMDD texts', () => {
    renderWithProviders(<Bar onSearch={() => {}} onReset={() => {}} />);
    expect(screen.getByRole('button', { name: /Dates/ })).toHaveTextContent(
      '2026-03-01 – 2026-03-10',
    );
  });
});
