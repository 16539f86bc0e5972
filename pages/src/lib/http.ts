import type { Localized } from '../../../src/i18n/localized.js';

/** An answer that is not a success: the station's `{detail, code}`, or what the network said. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

function answer<T>(status: number, text: string, statusText = ''): T {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (status >= 200 && status < 300) return parsed as T;
  const body = (parsed ?? {}) as { detail?: unknown; code?: unknown };
  const detail =
    typeof body.detail === 'string' ? body.detail : text.slice(0, 300) || statusText || `HTTP ${status}`;
  throw new ApiError(status, typeof body.code === 'string' ? body.code : `HTTP_${status}`, detail);
}

/**
 * The page's own language (`<html lang>`): sent as `Accept-Language` with every call, so the station's
 * sentences (details of refusals, messages of successes) come in the page's language whatever the browser
 * prefers (docs/api-contract.md §6).
 */
function pageLanguage(): string {
  return document.documentElement.lang || 'fr';
}

/** What the browser says when the station never answered, in the page's language too. */
const inPageLanguage = (text: Localized) => (pageLanguage() === 'en' ? text.en : text.fr);
const UNREACHABLE: Localized = { en: 'The station cannot be reached.', fr: 'La station est injoignable.' };
const INTERRUPTED: Localized = { en: 'The upload was interrupted.', fr: 'L’envoi a été interrompu.' };

/** fetch() for JSON APIs: the parsed body, or an ApiError whose message is the station's sentence. */
export async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  if (!headers.has('accept-language')) headers.set('accept-language', pageLanguage());
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', inPageLanguage(UNREACHABLE));
  }
  return answer<T>(response.status, await response.text(), response.statusText);
}

export interface ProgressRequest {
  method: string;
  headers: Record<string, string>;
  body: Blob;
  /** Fraction sent, 0…1. */
  onProgress?: (fraction: number) => void;
}

/** Sends a body with upload progress (XMLHttpRequest: fetch cannot report it) and parses the JSON answer. */
export function sendWithProgress<T>(url: string, request: ProgressRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, url);
    const named = (name: string) => Object.keys(request.headers).some((key) => key.toLowerCase() === name);
    if (!named('accept-language')) xhr.setRequestHeader('accept-language', pageLanguage());
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      try {
        resolve(answer<T>(xhr.status, xhr.responseText, xhr.statusText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', inPageLanguage(UNREACHABLE)));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', inPageLanguage(INTERRUPTED)));
    xhr.send(request.body);
  });
}

/** A message fit to show for any error. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** "<failed>: <what the station or the browser said>", with the French space before the colon. */
export function failureText(failed: string, error: unknown): string {
  return `${failed}${pageLanguage() === 'fr' ? ' : ' : ': '}${errorText(error)}`;
}
