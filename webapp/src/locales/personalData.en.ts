// Personal data erasure (docs/personal-data.md): English strings, under `personalData.`.
import type personalDataZh from './personalData.zh';

const personalDataEn: typeof personalDataZh = {
  route: 'Personal data erasure',
  title: 'Erase personal data',
  intro:
    'Erase one data subject by ID number, phone number, e-mail address or WeChat id: its key is destroyed, and the value then reads "[erased]" on every declaration, clearance exception and contact book, in history, exports, replay and the audit log; notices not yet sent to it are given up. The event log itself is unchanged and the audit chain still verifies. This cannot be undone.',
  subject: 'ID number, phone number, e-mail, WeChat id or subject id',
  subjectHint:
    'Spaces, dashes, a leading +86 and the case of an e-mail address do not matter; a subject id is ds_ followed by 32 hex digits',
  subjectRequired:
    'Enter an ID number, a phone number, an e-mail address, a WeChat id or a subject id',
  reason: 'Reason',
  reasonHint: "E.g. the request's reference, at most 500 characters; kept with the erasure",
  erase: 'Erase',
  confirmTitle: 'Erase personal data?',
  confirmText:
    'The key of this value is destroyed: it reads "[erased]" in every record for good and cannot be recovered. Go on?',
  doneTitle: 'Erased',
  doneText:
    '{{streams}} record(s) (declarations, clearance exceptions, contact books) held this value; they now show "[erased]".',
  subjectId: 'Subject id',
  notFound: 'No personal data of this value is stored',
  alreadyErased: 'This data subject is already erased',
};

export default personalDataEn;
