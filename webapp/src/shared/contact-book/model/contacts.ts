// A customer's saved notice contacts (GET/PUT /api/v1/customers/{id}/contacts).
export const CHANNELS = ['wechat', 'email', 'phone'] as const;
export const SIDES = ['shipFrom', 'shipTo'] as const;
export const COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'gray'] as const;

/** The colour a tag is drawn in (an unknown or missing tag: gray). */
const SWATCHES: Record<string, string> = {
  red: '#fa5252',
  orange: '#fd7e14',
  yellow: '#fab005',
  green: '#40c057',
  blue: '#228be6',
  purple: '#7950f2',
  gray: '#868e96',
};

export function swatch(color: string | null | undefined): string {
  return SWATCHES[color ?? 'gray'] ?? SWATCHES.gray;
}

export type Channel = (typeof CHANNELS)[number];
export type Side = (typeof SIDES)[number];

export interface SavedContact {
  channel: Channel;
  side: Side;
  name: string;
  value: string;
  color: string;
}

export interface ContactBook {
  customerId: string;
  version: number;
  contacts: SavedContact[];
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The exception form's contact field -> the book's channel and side (`null`: either side). */
export function fieldContacts(field: string): { channel: Channel; side: Side | null } | null {
  const channel: Channel | null = field.endsWith('Wechat')
    ? 'wechat'
    : field.endsWith('Email')
      ? 'email'
      : field.endsWith('Sms')
        ? 'phone'
        : null;
  if (!channel) return null;
  const side: Side | null = field.startsWith('shipper')
    ? 'shipFrom'
    : field.startsWith('recipient')
      ? 'shipTo'
      : null;
  return { channel, side };
}

/** The book's contacts a field may take, the field's side first. */
export function offeredFor(contacts: readonly SavedContact[], field: string): SavedContact[] {
  const want = fieldContacts(field);
  if (!want) return [];
  const same = contacts.filter((c) => c.channel === want.channel);
  return [
    ...same.filter((c) => want.side === null || c.side === want.side),
    ...same.filter((c) => want.side !== null && c.side !== want.side),
  ];
}
