import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { ProposedChange } from '@/shared/clearance-exceptions/model/types';

/** GET /api/v1/exception-link: what a recipient link shows (no account needed). */
export interface LinkView {
  exceptionId: string;
  status: number;
  trackingNumber: string | null;
  /** Requested document codes, e.g. `commercialInvoice`. */
  requested: string[];
  otherDocuments: string[];
  proposedChanges: ProposedChange[];
  documents: { id: string; fileName: string; contentType: string; requested?: string | null }[];
  expiresAt: string | null;
}

const PATH = '/api/v1/exception-link';
const header = (token: string) => ({ 'X-Link-Token': token });
const linkKey = (token: string) => ['exception-link', token] as const;

export function getExceptionLink(token: string): Promise<LinkView> {
  return request<LinkView>(PATH, { headers: header(token), hideErrorMessage: true });
}

export function useExceptionLink(token: string) {
  return useQuery({
    queryKey: linkKey(token),
    queryFn: () => getExceptionLink(token),
    enabled: token !== '',
    retry: false,
    staleTime: 0,
  });
}

/** POST /api/v1/exception-link/documents (multipart `requested` and `file`). */
export function uploadLinkDocument(
  token: string,
  file: File,
  requested?: string,
): Promise<CommandAnswer> {
  const body = new FormData();
  if (requested) body.append('requested', requested);
  body.append('file', file, file.name);
  return request<CommandAnswer>(`${PATH}/documents`, {
    method: 'POST',
    headers: header(token),
    formData: body,
    hideErrorMessage: true,
  });
}

export function useUploadLinkDocument(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, requested }: { file: File; requested?: string }) =>
      uploadLinkDocument(token, file, requested),
    onSuccess: () => client.invalidateQueries({ queryKey: linkKey(token) }),
  });
}

/** POST /api/v1/exception-link/confirm: acknowledges and answers; the link is then used. */
export interface LinkAnswer {
  confirmChanges: boolean;
  note?: string;
  /** Why each requested document without a file is missing. */
  missing?: { document: string; reason: string }[];
}

export function confirmLink(token: string, body: LinkAnswer): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${PATH}/confirm`, {
    method: 'POST',
    headers: header(token),
    body,
    hideErrorMessage: true,
  });
}

export function useConfirmLink(token: string) {
  return useMutation({
    mutationFn: (body: LinkAnswer) => confirmLink(token, body),
  });
}
