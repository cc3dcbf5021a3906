// The mutation every command hook uses: note the answer's position (read your writes),
// then invalidate the given keys (a resource's root key) so its lists are fetched again.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { noteAnswer } from '@/lib/readYourWrites';
import type { CommandAnswer } from '@/lib/apiTypes';

/** `If-Match` of a command on an existing stream. */
export const ifMatch = (version: number) => ({ 'If-Match': String(version) });

export function useCommandMutation<I, A extends CommandAnswer = CommandAnswer>(
  send: (input: I) => Promise<A>,
  invalidates: readonly QueryKey[],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (answer) => {
      noteAnswer(answer);
      await Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
