// The envelope API read and written directly with fetch: setup and verification beside the
// browser (docs/api.md). Every answer is {code, message, data, refreshed, accessToken}.
import { BASE_URL, DEMO_PASSWORD, TIMEOUTS } from './config.mjs';

export class ApiError extends Error {
  constructor(method, path, status, envelope) {
    super(
      `${method} ${path}: HTTP ${status}, code ${envelope?.code}: ${envelope?.message ?? ''}` +
        (Array.isArray(envelope?.data) ? ` ${JSON.stringify(envelope.data)}` : ''),
    );
    this.status = status;
    this.envelope = envelope;
  }
}

/**
 * One request. `token` may be null. Returns the envelope; throws ApiError when the code is
 * not 200 (unless `raw: true`, which returns {status, envelope}).
 */
export async function api(method, path, { token, body, query, lang = 'en', raw = false, headers = {} } = {}) {
  const url = new URL(BASE_URL + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  const h = { Accept: 'application/json', 'Accept-Language': lang, ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUTS.navigation),
  });
  const text = await res.text();
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (raw) return { status: res.status, envelope };
  if (envelope.code !== 200) throw new ApiError(method, path, res.status, envelope);
  return envelope;
}

const tokens = new Map();

/** A token for a demo login (POST /auth/login), cached per username for this process. */
export async function tokenFor(username, password = DEMO_PASSWORD) {
  if (!tokens.has(username)) {
    const env = await api('POST', '/auth/login', { body: { username, password } });
    if (typeof env.data !== 'string') throw new Error(`login ${username}: no token in ${JSON.stringify(env)}`);
    tokens.set(username, env.data);
  }
  return tokens.get(username);
}

/** One declaration; `minPosition` waits for the projection to have read that far. */
export async function getDeclaration(username, id, minPosition) {
  return (
    await api('GET', `/api/v1/declarations/${id}`, {
      token: await tokenFor(username),
      query: { minPosition },
    })
  ).data;
}

export async function getHistory(username, id) {
  return (await api('GET', `/api/v1/declarations/${id}/history`, { token: await tokenFor(username) })).data;
}

/** The list endpoint's records for a query (docs/api.md "Declarations: queries"). */
export async function listDeclarations(username, query) {
  const env = await api('GET', '/api/v1/declarations', {
    token: await tokenFor(username),
    query: { status: -1, pageNo: 1, pageSize: 50, ...query },
  });
  return env.data;
}

/** The one declaration with this tracking number that `username` can see, or null. */
export async function findByTrackingNumber(username, trackingNumber, declarationType = 'OC') {
  const { records } = await listDeclarations(username, { declarationType, trackingNumber });
  return records.find((r) => r.trackingNumber === trackingNumber) ?? null;
}

/**
 * Polls `read` until `check(value)` holds (projections are eventually consistent), within
 * `timeout` ms; answers the last value or throws with it.
 */
export async function eventually(read, check, { timeout = TIMEOUTS.action, interval = 250, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  let lastError;
  for (;;) {
    try {
      last = await read();
      if (check(last)) return last;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > end) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 500)}` +
          (lastError ? `; last error: ${lastError.message}` : ''),
      );
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** A complete class C export of `acme` that passes submit validation (like the demo data). */
export function fullCExport(trackingNumber) {
  return {
    declarationType: 'OC',
    trackingNumber,
    serviceType: '065',
    port: 'PVG',
    slic: 'SHA01',
    currencyCode: 'USD',
    grossWeight: 3.5,
    netWeight: 3,
    packageQuantity: 2,
    packageType: '22',
    tradeCountry: 'USA',
    trafficMode: '5',
    shipperName: 'Li Lei',
    shipperCompany: 'ACME Trading',
    shipperAddress: '88 Century Avenue, Pudong, Shanghai',
    shipperPhone: '13800138000',
    recipientName: 'John Smith',
    recipientCompany: 'Smith Retail LLC',
    recipientAddress: '1 Main Street, Louisville, KY, USA',
    recipientPhone: '+1 502 555 0100',
    declarationGoodsInfo: [
      {
        goodsNo: 1,
        goodsCode: '6109100000',
        goodsName: '棉制针织T恤衫',
        specification: '0|0|针织|棉100%|无品牌',
        goodsQuantity: 20,
        goodsUnit: '011',
        quantityOne: 3,
        unitOne: '035',
        unitPrice: 8.5,
        totalPrice: 170,
        currency: 'USD',
        originCountry: 'CHN',
        destinationCountry: 'USA',
        dutyMode: '1',
      },
    ],
  };
}

/**
 * Creates a complete C export as `username` and submits it (status 1). Answers
 * {id, position}; pass the position as minPosition to read it back.
 */
export async function createSubmittedCExport(username, trackingNumber) {
  const token = await tokenFor(username);
  const created = await api('POST', '/api/v1/declarations', { token, body: fullCExport(trackingNumber) });
  const id = created.data.id;
  const submitted = await api('POST', `/api/v1/declarations/${id}/submit`, { token });
  return { id, position: submitted.data.position };
}

/** Moves a declaration through `actions` (e.g. ['review', 'complete']) as `username`; answers the last position. */
export async function act(username, id, actions) {
  const token = await tokenFor(username);
  let position;
  for (const action of actions) {
    position = (await api('POST', `/api/v1/declarations/${id}/${action}`, { token, body: {} })).data.position;
  }
  return position;
}

/**
 * Waits until the clearance exceptions list (a projection) shows an exception of
 * `trackingNumber`, so that a page opened next lists it (a loaded machine can be seconds
 * behind the 2 s a query waits for `minPosition`).
 */
export async function exceptionListed(token, trackingNumber, minPosition) {
  return eventually(
    () => api('GET', '/api/v1/clearance-exceptions', { token, query: { trackingNumber, minPosition } }),
    (answer) => answer.data.total > 0,
    { what: `the exception of ${trackingNumber} in the list` },
  );
}

/**
 * An export exception (E01, commercial invoice) on a new submitted class C export of acme's,
 * raised by the operator, once the exceptions list shows it; answers the tracking number.
 */
export async function raiseInvoiceException(tracking, summary) {
  const { id: declarationId } = await createSubmittedCExport('acme', tracking);
  const token = await tokenFor('operator');
  const raised = await api('POST', '/api/v1/clearance-exceptions', {
    token,
    body: {
      declarationId,
      exceptionDetails: [{ exceptionCode: 'E01', exceptionDescription: 'Commercial invoice missing' }],
      isCommercialInvoiceChecked: true,
      sendToEmail: false,
      exceptionSummary: summary,
    },
  });
  await exceptionListed(token, tracking, raised.data.position);
  return tracking;
}
