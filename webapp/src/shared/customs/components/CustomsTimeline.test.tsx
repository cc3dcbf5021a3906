import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import type { CustomsEntry } from '../model/types';
import { CustomsTimeline } from './CustomsTimeline';
import { ByHandMarker, ReceiptBadge } from './ReceiptBadge';

function entry(over: Partial<CustomsEntry>): CustomsEntry {
  return {
    version: 5,
    kind: 'receipt',
    at: '2026-11-28T10:00:05+08:00',
    actor: 'customs',
    copNo: 'CW0123456789ABCDEF',
    messageKind: null,
    fileName: null,
    sha256: null,
    problems: [],
    previous: null,
    reason: null,
    code: null,
    meaningZh: null,
    meaningEn: null,
    noticeDate: null,
    note: null,
    entryId: null,
    cusCiqNo: null,
    taxes: [],
    docs: [],
    effect: null,
    source: null,
    ...over,
  };
}

const entries: CustomsEntry[] = [
  entry({
    version: 4,
    kind: 'sent',
    actor: 'system',
    messageKind: 'declaration',
    fileName: 'CW0123456789ABCDEF.xml',
    sha256: 'ab',
  }),
  entry({
    code: 'L',
    meaningZh: '入库成功',
    meaningEn: "accepted into customs' system",
    noticeDate: '2026-11-28T10:00:00+08:00',
    entryId: '222420261000077777',
    cusCiqNo: 'I20260000077777',
    effect: 'progress',
    source: 'r1.xml',
  }),
  entry({
    version: 6,
    code: 'T',
    meaningZh: '缴税',
    meaningEn: 'taxes assessed',
    noticeDate: '2026-11-28T11:00:00+08:00',
    taxes: [
      { type: 'A', amount: '12.50' },
      { type: 'L', amount: '30.00' },
    ],
    effect: 'progress',
  }),
  entry({
    version: 7,
    code: 'C',
    meaningZh: '查验',
    meaningEn: 'selected for inspection',
    noticeDate: '2026-11-28T12:00:00+08:00',
    note: 'open the box',
    effect: 'late',
  }),
];

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('CustomsTimeline', () => {
  it('shows each message and receipt with its meaning, numbers, taxes and note', () => {
    const download = vi.fn();
    renderWithProviders(<CustomsTimeline entries={entries} onDownload={download} />);
    expect(screen.getByText('发送报文')).toBeInTheDocument();
    expect(screen.getByText('CW0123456789ABCDEF.xml')).toBeInTheDocument();
    expect(screen.getByText("L 入库成功 / accepted into customs' system")).toBeInTheDocument();
    expect(screen.getByText('222420261000077777')).toBeInTheDocument();
    expect(screen.getByText('I20260000077777')).toBeInTheDocument();
    expect(screen.getByText('关税 CNY 12.50 · 进口增值税 CNY 30.00')).toBeInTheDocument();
    expect(screen.getByText('open the box')).toBeInTheDocument();
    expect(screen.getByText('迟到回执（早于当前状态），仅记录')).toBeInTheDocument();
    expect(screen.getByText(/海关通知时间 2026-11-28 12:00/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '下载报文 CW0123456789ABCDEF' }));
    expect(download).toHaveBeenCalledWith('CW0123456789ABCDEF');
  });

  it('offers no download without the permission, and reads in English', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<CustomsTimeline entries={entries} />);
    expect(screen.queryByRole('button', { name: /Download message/ })).toBeNull();
    expect(screen.getByText('Message sent')).toBeInTheDocument();
    expect(screen.getByText("L accepted into customs' system / 入库成功")).toBeInTheDocument();
    expect(screen.getByText('Duty CNY 12.50 · Import VAT CNY 30.00')).toBeInTheDocument();
  });

  it('says so when nothing was sent', () => {
    renderWithProviders(<CustomsTimeline entries={[]} />);
    expect(screen.getByText('尚未向海关发送报文')).toBeInTheDocument();
  });

  it('labels a receipt beside a status, and a move by hand', async () => {
    renderWithProviders(
      <>
        <ReceiptBadge code="C" />
        <ReceiptBadge code="Sp1" />
        <ReceiptBadge code={null} />
        <ByHandMarker />
      </>,
    );
    expect(screen.getByText('C · 查验')).toBeInTheDocument();
    expect(screen.getByText('Sp1 · 补充申报')).toBeInTheDocument();
    expect(screen.getByText('手工')).toBeInTheDocument();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    expect(await screen.findByText('C · inspection')).toBeInTheDocument();
    expect(screen.getByText('by hand')).toBeInTheDocument();
  });
});
