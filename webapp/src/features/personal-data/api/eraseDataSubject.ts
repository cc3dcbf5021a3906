// POST /api/v1/admin/data-subjects/erase (ADMIN/SUPER_ADMIN with personal-data:erase):
// destroys a data subject's key, so its ID number, phone number, e-mail or WeChat id reads "[erased]" everywhere.
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';

export interface EraseBody {
  /** An ID number, a phone number, an e-mail address, a WeChat id or a subject id (`ds_` + 32 hex digits). */
  subject: string;
  reason?: string;
}

export interface ErasureAnswer extends CommandAnswer {
  /** The subject id, never the number. */
  subject: string;
  /** How many streams (declarations) held values of the subject. */
  streams: number;
}

/** Errors are not toasted: the page shows them beside the form. */
export function eraseDataSubject(body: EraseBody): Promise<ErasureAnswer> {
  return request('/api/v1/admin/data-subjects/erase', {
    method: 'POST',
    body,
    hideErrorMessage: true,
  });
}

/** Every declaration read may change: all of them are fetched again. */
export function useEraseDataSubject() {
  return useCommandMutation(eraseDataSubject, [['declarations'], ['compliance']]);
}
