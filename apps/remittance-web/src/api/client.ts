import createClient from 'openapi-fetch';
import type { paths } from './schema.generated.js';

export type { paths };

/**
 * The typed client of the /api surface (W2): the session is the httpOnly `app_token` cookie, sent by
 * the browser on same-origin calls, and every POST/PATCH/DELETE carries the Origin header the browser
 * adds itself (R4). Paths, bodies and answers come from the service's /openapi.json.
 */
export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '', credentials: 'same-origin' });

/** The service's error envelope (R2) as a thrown error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

interface Envelope {
  error?: string;
  message?: string;
  details?: { field: string; message: string }[];
}

/** Called on any 401 (the cookie expired or was revoked): the app shows the sign-in page. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** The answer's data, or an ApiError carrying the envelope. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const body = (result.error ?? {}) as Envelope;
  if (result.response.status === 401) onUnauthorized();
  throw new ApiError(
    result.response.status,
    body.error ?? `http_${result.response.status}`,
    body.message ?? result.response.statusText,
    body.details,
  );
}

/** Downloads a binary of the signed-in user (receipt PDF, QR image, data export) as an object URL. */
export async function fetchBlob(path: string): Promise<{ url: string; type: string; filename: string | null }> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as Envelope;
    if (res.status === 401) onUnauthorized();
    throw new ApiError(res.status, body.error ?? `http_${res.status}`, body.message ?? res.statusText);
  }
  const blob = await res.blob();
  const filename = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null;
  return { url: URL.createObjectURL(blob), type: blob.type, filename };
}

/** A fresh Idempotency-Key (R9): one per payment the user confirms, reused by every retry of it. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
