// The customer archive through the API (GET/POST /api/v1/customers...): setup and checks
// beside the browser scenarios of tests/customers.test.mjs.
import { api, tokenFor } from './api.mjs';

/** A customer username no earlier run used (letters and digits, lower case). */
export function uniqueCustomerUsername(tag = 'e2e') {
  const stamp = Date.now().toString(36);
  const rand = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0');
  return `${tag}${stamp}${rand}`.toLowerCase();
}

/** Registers a customer as `staff` (default admin); answers the command answer. */
export async function createCustomer(username, profile = {}, staff = 'admin') {
  const env = await api('POST', '/api/v1/customers', {
    token: await tokenFor(staff),
    body: { username, companyName: `${username} Trading`, createLogin: false, ...profile },
  });
  return env.data;
}

/** The archive rows matching `keyword` that `staff` sees. */
export async function listCustomers(keyword, { staff = 'admin', minPosition } = {}) {
  const env = await api('GET', '/api/v1/customers', {
    token: await tokenFor(staff),
    query: { keyword, pageNo: 1, pageSize: 50, minPosition },
  });
  return env.data.records;
}

/** The one archive row with this exact username, or null. */
export async function findCustomer(username, options) {
  const rows = await listCustomers(username, options);
  return rows.find((r) => r.username === username) ?? null;
}

/** GET /api/v1/customers/{id} as {status, envelope} (404 once deleted). */
export async function getCustomerRaw(id, staff = 'admin') {
  return api('GET', `/api/v1/customers/${id}`, { token: await tokenFor(staff), raw: true });
}
