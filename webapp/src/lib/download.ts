// The download helper of spec 7: bearer token, a blocking "please wait" overlay, a blob
// saved under a name made of the type and MMdd-HHmm, or the JSON envelope's message.
import dayjs from 'dayjs';
import i18n from './i18n';
import { loading } from './loading';
import { showMessage } from './message';
import { ApiError, apiUrl, authHeaders, forceRelogin, type Params } from './request';

export interface DownloadOptions {
  method?: 'GET' | 'POST';
  params?: Params;
  body?: unknown;
  /** Leading word of the file name, e.g. the declaration type; default "export". */
  type?: string;
  /** Default ".zip". */
  extension?: string;
  /** Show errors as toasts (default true); the export dialog shows them itself. */
  showError?: boolean;
  /** Save under the name the server gives (Content-Disposition) when it gives one. */
  serverName?: boolean;
  /** The success toast (default "export succeeded"); false for none. */
  successMessage?: string | false;
  now?: Date;
}

/** `${type}-${MMdd-HHmm}${extension}` with the spec's defaults. */
export function downloadFileName(
  type?: string,
  extension?: string,
  now: Date = new Date(),
): string {
  const ext = extension ? (extension.startsWith('.') ? extension : `.${extension}`) : '.zip';
  return `${type || 'export'}-${dayjs(now).format('MMDD-HHmm')}${ext}`;
}

/**
 * The file name of a Content-Disposition header (`filename*=UTF-8''...` preferred over
 * `filename="..."`), without any directory part; null when there is none.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  let name: string | null = null;
  if (star) {
    try {
      name = decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
    name = plain ? (plain[2] ?? plain[1]).trim() : null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads and saves a file; resolves with the file name, or throws an ApiError. */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<string> {
  const { method = 'POST', params, body, showError = true } = options;
  const headers: Record<string, string> = authHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  loading.block(i18n.t('download.wait'));
  try {
    let response: Response;
    try {
      response = await fetch(apiUrl(path, params), {
        method,
        headers,
        credentials: 'include',
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch {
      const text = i18n.t('download.timeout');
      if (showError) showMessage('error', text);
      throw new ApiError(408, text, 0, null);
    }
    const type = response.headers.get('content-type') ?? '';
    // An envelope is application/json; a file may be JSON lines (application/x-ndjson).
    if (/^application\/json\b/i.test(type) || !response.ok) {
      let code = response.status;
      let text = i18n.t('request.httpError', { status: response.status });
      let data: unknown = null;
      try {
        const envelope = (await response.json()) as {
          code?: number;
          message?: string;
          data?: unknown;
        };
        code = Number(envelope.code ?? code);
        text = envelope.message || text;
        data = envelope.data ?? null;
      } catch {
        // not JSON: keep the HTTP status text
      }
      if (code === 401 || response.status === 401) {
        forceRelogin();
      } else if (showError) {
        showMessage('error', text);
      }
      throw new ApiError(code, text, response.status, data);
    }
    const blob = await response.blob();
    const name =
      (options.serverName &&
        fileNameFromDisposition(response.headers.get('content-disposition'))) ||
      downloadFileName(options.type, options.extension, options.now);
    saveBlob(blob, name);
    if (options.successMessage !== false)
      showMessage('success', options.successMessage ?? i18n.t('download.success'));
    return name;
  } finally {
    loading.unblock();
  }
}
