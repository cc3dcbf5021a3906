// Personal data erasure (docs/personal-data.md): English strings, under `personalData.`.
import type personalDataZh from './personalData.zh';

const personalDataEn: typeof personalDataZh = {
  route: 'Personal data erasure',
  title: 'Erase personal data',
  intro:
    'Erase one data subject by ID number or phone number: its key is destroyed, and the number then reads "[erased]" on every declaration, in history, exports, replay and the audit log. The event log itself is unchanged and the audit chain still verifies. This cannot be undone.',
  subject: 'ID number, phone number or subject id',
  subjectHint:
    'Spaces, dashes and a leading +86 do not matter; a subject id is ds_ followed by 32 hex digits',
  subjectRequired: 'Enter an ID number, a phone number or a subject id',
  reason: 'Reason',
  reasonHint: "E.g. the request's reference, at most 500 characters; kept with the erasure",
  erase: 'Erase',
  confirmTitle: 'Erase personal data?',
  confirmText:
    'The key of this number is destroyed: it reads "[erased]" in every record for good and cannot be recovered. Go on?',
  doneTitle: 'Erased',
  doneText: '{{streams}} declaration(s) held this number; they now show "[erased]".',
  subjectId: 'Subject id',
  notFound: 'No personal data of this number is stored',
  alreadyErased: 'This data subject is already erased',
};

export default personalDataEn;
