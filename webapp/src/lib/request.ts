// The request client of spec 7 and API.md: bearer token, cookies, 20-minute timeout, the
// reference-counted loading indicator, and envelope handling. Every API file goes through
// `request` (data only) or `requestEnvelope` (the whole envelope).
import { apiBase, requestTimeoutMs } from '@/config';
import i18n from './i18n';
import { loading } from './loading';
import { showMessage } from './message';
import { sessionActions } from './session';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
  refreshed?: boolean;
  accessToken?: string | null;
}

export interface FieldError {
  field: string;
  message: string;
}

export type ParamValue =
  string | number | boolean | null | undefined | readonly (string | number)[];
export type Params = Record<string, ParamValue>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  params?: Params;
  /** JSON body. */
  body?: unknown;
  /** Form-encoded body (the login contract). */
  form?: Record<string, string>;
  /** Multipart body (file uploads); the browser sets its boundary. */
  formData?: FormData;
  headers?: Record<string, string>;
  /** Do not count this request in the loading indicator. */
  hiddenLoading?: boolean;
  /** Do not toast the error message; the caller shows it. */
  hideErrorMessage?: boolean;
  timeout?: number;
  signal?: AbortSignal;
}

/** Codes that never toast (spec 8): new user, password update, transfer, mismatch, locked. */
export const SILENT_CODES: readonly number[] = [10002, 10003, 10004, 10005, 10006];
const CANCELLED_MESSAGES = ['your account has been cancelled', '您的账户已注销'];
export const EXCEPTION_CODE = 20000;

export class ApiError<T = unknown> extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: T;
  constructor(code: number, message: string, status: number, data: T) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.data = data;
  }
  /** Field errors of a 400 answer (`data: [{field, message}]`). */
  get fieldErrors(): FieldError[] {
    return Array.isArray(this.data)
      ? (this.data as unknown[]).filter(
          (e): e is FieldError =>
            typeof e === 'object' && e !== null && 'field' in e && 'message' in e,
        )
      : [];
  }
  /** `data.reason` of a 409 answer: VERSION_CONFLICT or ILLEGAL_TRANSITION. */
  get reason(): string | undefined {
    const d = this.data as { reason?: unknown } | null;
    return d && typeof d.reason === 'string' ? d.reason : undefined;
  }
}

/**
 * The header of a query answer whose read models had not yet reached the caller's last write
 * (its value is that event-store position): the answer may lack what the user just saved.
 */
export const READ_BEHIND_HEADER = 'X-Read-Behind';

/**
 * A query answered from read models that are still catching up with the caller's own write.
 * Thrown (never shown as an error) so that TanStack Query asks again with back-off until the
 * answer is current (see `queryClient.ts`); `data` is the answer as it stood.
 */
export class ReadBehindError<T = unknown> extends Error {
  readonly position: number;
  readonly data: T;
  constructor(position: number, data: T) {
    super(`the read models are catching up with position ${position}`);
    this.name = 'ReadBehindError';
    this.position = position;
    this.data = data;
  }
}

interface ClientHooks {
  /** Client-side navigation (set by the router); falls back to a full page load. */
  navigate: (path: string) => void;
  /** Full reload after a forced logout. */
  reload: () => void;
}

const hooks: ClientHooks = {
  navigate: (path) => window.location.assign(path),
  reload: () => window.location.reload(),
};

export function configureRequestClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

let reloginInProgress = false;
/** Tests only. */
export function resetRequestClientState(): void {
  reloginInProgress = false;
}

export function apiUrl(path: string, params?: Params): string {
  const url = `${apiBase}${path}`;
  const query = buildQuery(params);
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

/** Drops null/undefined; joins lists with commas. Empty strings stay ("all"). */
export function buildQuery(params?: Params): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return search.toString();
}

export function authHeaders(): Record<string, string> {
  const token = sessionActions.token();
  const headers: Record<string, string> = {
    'Accept-Language': i18n.language?.startsWith('en') ? 'en' : 'zh',
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** HTTP 401 or the re-login code: warn, forget the session, reload (once for a burst). */
export function forceRelogin(): void {
  if (reloginInProgress) return;
  reloginInProgress = true;
  showMessage('warning', i18n.t('request.relogin'));
  sessionActions.clear();
  hooks.reload();
}

function isCancelledMessage(message: string): boolean {
  const lower = message.toLowerCase();
  return CANCELLED_MESSAGES.some((m) => lower.includes(m.toLowerCase()));
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value;
}

/**
 * Applies the envelope rules to a parsed answer. Resolves with the envelope on success
 * (200, or the exception code 20000); otherwise shows what the spec says and throws.
 */
export function handleEnvelope<T>(
  status: number,
  body: unknown,
  options: Pick<RequestOptions, 'hideErrorMessage'> = {},
): Envelope<T> {
  if (isEnvelope(body) && body.refreshed && body.accessToken) {
    sessionActions.setToken(body.accessToken);
  }
  const code = isEnvelope(body) ? Number(body.code) : status;
  const text = isEnvelope(body) ? String(body.message ?? '') : '';
  const data = (isEnvelope(body) ? body.data : null) as T;

  if (status === 401 || code === 401) {
    forceRelogin();
    throw new ApiError(401, i18n.t('request.relogin'), status, data);
  }
  if (code === -1) {
    hooks.navigate('/401');
    throw new ApiError(-1, text, status, data);
  }
  if (status >= 200 && status < 300 && (code === 200 || code === EXCEPTION_CODE)) {
    return body as Envelope<T>;
  }
  const messageText = text || i18n.t('request.httpError', { status });
  const silent =
    options.hideErrorMessage || SILENT_CODES.includes(code) || isCancelledMessage(messageText);
  if (!silent) showMessage('error', messageText);
  throw new ApiError(code, messageText, status, data);
}

export async function requestEnvelope<T>(
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const { method = 'GET', params, body, form, formData, hiddenLoading, hideErrorMessage } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  let payload: BodyInit | undefined;
  if (formData) {
    payload = formData;
  } else if (form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  Object.assign(headers, options.headers);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? requestTimeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);

  if (!hiddenLoading) loading.start();
  try {
    let response: Response;
    try {
      response = await fetch(apiUrl(path, params), {
        method,
        headers,
        body: payload,
        credentials: 'include',
        signal: controller.signal,
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      const text = timedOut ? i18n.t('request.timeout') : i18n.t('request.network');
      if (!hideErrorMessage) showMessage('error', text);
      throw new ApiError(timedOut ? 408 : 0, text, 0, null);
    }
    let parsed: unknown = null;
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('json')) {
      try {
        parsed = await response.json();
      } catch {
        parsed = null;
      }
    }
    const envelope = handleEnvelope<T>(response.status, parsed, { hideErrorMessage });
    const behind = response.headers.get(READ_BEHIND_HEADER);
    if (method === 'GET' && behind !== null) {
      throw new ReadBehindError(Number(behind), envelope.data);
    }
    return envelope;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (!hiddenLoading) loading.stop();
  }
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const envelope = await requestEnvelope<T>(path, options);
  return envelope.data;
}

export const http = {
  get: <T>(path: string, params?: Params, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'GET', params }),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'DELETE' }),
};
