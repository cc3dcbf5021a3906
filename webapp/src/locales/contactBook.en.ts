import type { ContactBookMessages } from './contactBook.zh';

const en: ContactBookMessages = {
  title: 'Saved contacts',
  intro:
    'Contacts for clearance exception notices: WeChat (openId), e-mail and phone, for the sender or the receiver side, with a colour tag. The exception form offers them.',
  empty: 'No contact yet',
  add: 'Add a contact',
  save: 'Save',
  saved: 'Contacts saved',
  remove: 'Remove',
  conflict: 'Someone else changed these contacts; they were reloaded, please save again',
  column: { channel: 'Channel', side: 'Side', name: 'Name', value: 'Address', color: 'Colour' },
  channel: { wechat: 'WeChat', email: 'E-mail', phone: 'Phone' },
  side: { shipFrom: 'Sender', shipTo: 'Receiver' },
  color: {
    red: 'Red',
    orange: 'Orange',
    yellow: 'Yellow',
    green: 'Green',
    blue: 'Blue',
    purple: 'Purple',
    gray: 'Grey',
  },
  valueHint: { wechat: 'openId', email: 'name@example.com', phone: '+86 138 0000 0000' },
  badPhone:
    'Not a phone number: use a mainland mobile, a landline with its area code or an international number starting with +',
  pick: 'Pick from saved contacts',
};

export default en;
