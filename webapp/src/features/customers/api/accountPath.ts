// The path of one login account, shared by its command endpoints.
export const accountPath = (accountId: string) =>
  `/api/v1/accounts/${encodeURIComponent(accountId)}`;
