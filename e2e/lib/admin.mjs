// Platform management (staff, roles, ports, audit) through the API: setup, checks and
// clean-up beside the browser tests of tests/admin.test.mjs.
import { api, tokenFor } from './api.mjs';

/** A short tag unique to this run (base 36 time + random). */
export function runTag() {
  return (Date.now().toString(36) + Math.floor(Math.random() * 1296).toString(36)).toUpperCase();
}

/** The roles with their permission codes, as `username` sees them. */
export async function getRoles(username = 'admin', minPosition) {
  const env = await api('GET', '/api/v1/roles', { token: await tokenFor(username), query: { minPosition } });
  return env.data;
}

/** The permission codes of one role. */
export async function roleCodes(roleCode, username = 'admin', minPosition) {
  const role = (await getRoles(username, minPosition)).find((r) => r.roleCode === roleCode);
  if (!role) throw new Error(`no role ${roleCode}`);
  return { codes: role.permissions.map((p) => p.permissionCode), version: role.version };
}

/** Sets a role's codes (PUT /api/v1/roles/{code}/permissions); answers {id, version, position}. */
export async function setRoleCodes(roleCode, permissionCodes, username = 'admin') {
  const env = await api('PUT', `/api/v1/roles/${roleCode}/permissions`, {
    token: await tokenFor(username),
    body: { permissionCodes },
  });
  return env.data;
}

/** Staff records matching `keyword`. */
export async function findStaff(keyword, username = 'admin') {
  const env = await api('GET', '/api/v1/staff', {
    token: await tokenFor(username),
    query: { keyword, pageNo: 1, pageSize: 50 },
  });
  return env.data.records;
}

/** The ports of GET /api/v1/port/slic-info. */
export async function slicInfo(username = 'admin') {
  return (await api('GET', '/api/v1/port/slic-info', { token: await tokenFor(username) })).data;
}

/** A 3-letter port code no port has yet (port codes are three capital letters). */
export async function freePortCode() {
  const taken = new Set((await slicInfo()).map((p) => p.portCode));
  for (let i = 0; i < 200; i++) {
    const code = Array.from({ length: 3 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
    if (!taken.has(code)) return code;
  }
  throw new Error('no free port code found');
}

/** A 4-digit SLIC. */
export function randomSlic() {
  return String(1000 + Math.floor(Math.random() * 9000));
}

/** Creates an employee through the API (POST /api/v1/staff); answers {id, version, position}. */
export async function createStaff(body, username = 'admin') {
  return (await api('POST', '/api/v1/staff', { token: await tokenFor(username), body })).data;
}
