import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { declarationTypeName, useDeclarationTypeName } from './typeName';

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('declarationTypeName', () => {
  it('names every type code in Chinese, with what the class holds and the code when asked', async () => {
    await i18n.changeLanguage('zh');
    const t = i18n.t.bind(i18n);
    expect(declarationTypeName(t, 'OB')).toBe('出口 B类');
    expect(declarationTypeName(t, 'IC')).toBe('进口 C类');
    expect(declarationTypeName(t, 'OB', { detail: true })).toBe('出口 B类 · 个人物品');
    expect(declarationTypeName(t, 'ID', { code: true })).toBe('进口 D类（ID）');
    expect(declarationTypeName(t, 'OC', { detail: true, code: true })).toBe(
      '出口 C类 · 低值货物（OC）',
    );
  });

  it('names them in English', async () => {
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(declarationTypeName(t, 'OB', { detail: true })).toBe('Export class B · personal items');
    expect(declarationTypeName(t, 'IB', { code: true })).toBe('Import class B (IB)');
    expect(declarationTypeName(t, 'OD', { detail: true, code: true })).toBe(
      'Export class D · formal declaration (OD)',
    );
  });

  it('names a class letter by what it holds', async () => {
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(declarationTypeName(t, 'B')).toBe('B · personal items');
    expect(declarationTypeName(t, 'C')).toBe('C · low-value goods');
  });

  it('reads a code in any case and shows an unknown value as it came, an empty one as nothing', async () => {
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(declarationTypeName(t, 'oc')).toBe('Export class C');
    expect(declarationTypeName(t, 'XX')).toBe('XX');
    expect(declarationTypeName(t, null)).toBe('');
    expect(declarationTypeName(t, '')).toBe('');
  });

  it('the hook follows the reader’s language', async () => {
    function Name() {
      const typeName = useDeclarationTypeName();
      return <span data-testid="name">{typeName('IC', { code: true })}</span>;
    }
    await i18n.changeLanguage('en');
    renderWithProviders(<Name />);
    expect(screen.getByTestId('name')).toHaveTextContent('Import class C (IC)');
  });
});
