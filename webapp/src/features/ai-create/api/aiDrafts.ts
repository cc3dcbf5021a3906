// POST /api/v1/ai-drafts (multipart), GET /api/v1/ai-drafts/{id}, POST .../{id}/accept.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { useCommandMutation, ifMatch } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { declarationKeys } from '@/shared/declarations/api/keys';
import type { AiDraft } from '../model/types';

export const AI_DRAFTS_PATH = '/api/v1/ai-drafts';

export interface ProposeInput {
  customerId: string;
  declarationType: string;
  files: File[];
  text: string;
}

/** Reads the documents and answers the proposal. Errors are shown by the screen. */
export function proposeAiDraft(input: ProposeInput): Promise<AiDraft> {
  const body = new FormData();
  if (input.customerId) body.append('customerId', input.customerId);
  body.append('declarationType', input.declarationType);
  for (const file of input.files) body.append('files', file, file.name);
  if (input.text.trim()) body.append('text', input.text);
  return request<AiDraft>(AI_DRAFTS_PATH, {
    method: 'POST',
    formData: body,
    hideErrorMessage: true,
    // The screen shows its own progress.
    hiddenLoading: true,
  });
}

export function useProposeAiDraft() {
  return useMutation({ mutationFn: proposeAiDraft });
}

export const aiDraftKeys = {
  all: ['ai-drafts'] as const,
  detail: (id: string) => ['ai-drafts', 'detail', id] as const,
};

export function getAiDraft(id: string): Promise<AiDraft> {
  // Read from the proposal's own stream: always current.
  return request<AiDraft>(`${AI_DRAFTS_PATH}/${encodeURIComponent(id)}`);
}

export const aiDraftQueryOptions = (id: string) =>
  // A proposal changes only when accepted, which invalidates it.
  queryOptions({
    queryKey: aiDraftKeys.detail(id),
    queryFn: () => getAiDraft(id),
    staleTime: Infinity,
  });

export interface AcceptInput {
  id: string;
  version: number;
  form: Record<string, unknown>;
}

/** Makes the declaration from the reviewed form; answers the declaration's id. */
export function acceptAiDraft(input: AcceptInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${AI_DRAFTS_PATH}/${encodeURIComponent(input.id)}/accept`, {
    method: 'POST',
    body: input.form,
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export function useAcceptAiDraft() {
  return useCommandMutation(acceptAiDraft, [declarationKeys.all, aiDraftKeys.all]);
}
