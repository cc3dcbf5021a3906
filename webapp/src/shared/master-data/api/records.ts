// The master-data records every library shares (trade companies, products): list (GET with
// the filters), create (POST), update (PUT, If-Match), delete (DELETE, If-Match); a command
// invalidates the library's root key; errors are not toasted (the dialogs show them).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { CommandAnswer, Page } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';

export function recordsApi<Fields, Row>(base: string, rootKey: readonly string[]) {
  const path = (id: string) => `${base}/${encodeURIComponent(id)}`;
  const list = (params: Params) =>
    request<Page<Row>>(base, { params: { ...params, ...minPositionParam() } });
  const listQuery = (params: Params) =>
    queryOptions({
      queryKey: [...rootKey, 'list', params],
      queryFn: () => list(params),
      placeholderData: keepPreviousData,
    });
  const create = (body: Fields & { customerId?: string }): Promise<CommandAnswer> =>
    request(base, { method: 'POST', body, hideErrorMessage: true });
  const update = (input: { id: string; version: number; body: Fields }): Promise<CommandAnswer> =>
    request(path(input.id), {
      method: 'PUT',
      body: input.body,
      headers: ifMatch(input.version),
      hideErrorMessage: true,
    });
  const remove = (input: { id: string; version: number }): Promise<CommandAnswer> =>
    request(path(input.id), {
      method: 'DELETE',
      headers: ifMatch(input.version),
      hideErrorMessage: true,
    });
  return {
    base,
    list,
    listQuery,
    useList: (params: Params) => useQuery(listQuery(params)),
    create,
    update,
    remove,
    useCreate: () => useCommandMutation(create, [rootKey]),
    useUpdate: () => useCommandMutation(update, [rootKey]),
    useRemove: () => useCommandMutation(remove, [rootKey]),
  };
}

export type RecordsApi<Fields, Row> = ReturnType<typeof recordsApi<Fields, Row>>;
