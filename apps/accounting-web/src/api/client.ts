import { Session } from '@app/web-tools/session';
import createClient from 'openapi-fetch';
import type { paths } from './schema.generated.js';

export type { paths };

/** Paths whose 401 means wrong credentials, never an expired token. */
const CREDENTIAL_PATHS = [
  '/api/v1/auth/login',
  '/api/v1/auth/verify-2fa',
  '/api/v1/auth/register',
  '/api/v1/auth/accept-invite',
];

export const session = new Session({ refreshPath: '/api/v1/auth/refresh', noRefresh: CREDENTIAL_PATHS });

/** The typed client: paths, bodies and answers come from the service's /openapi.json. */
export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '' });
api.use(session.middleware());

/** The service's error envelope (A1) as a thrown error: code (SVC-xxxx), message in the caller's language, details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

interface Envelope {
  error?: { code?: string; message?: string; details?: Record<string, string[]> };
}

/** The answer's data, or an ApiError carrying the envelope. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const body = (result.error ?? {}) as Envelope;
  throw new ApiError(
    result.response.status,
    body.error?.code ?? `HTTP-${result.response.status}`,
    body.error?.message ?? result.response.statusText,
    body.error?.details,
  );
}

/** Downloads an authenticated binary (PDF, UBL, payment code) as an object URL. */
export async function fetchBlob(path: string): Promise<{ url: string; type: string; filename: string | null }> {
  const send = () =>
    fetch(path, { headers: session.accessToken ? { authorization: `Bearer ${session.accessToken}` } : {} });
  let res = await send();
  if (res.status === 401 && (await session.refresh())) res = await send();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as Envelope;
    throw new ApiError(res.status, body.error?.code ?? `HTTP-${res.status}`, body.error?.message ?? res.statusText);
  }
  const blob = await res.blob();
  const filename = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null;
  return { url: URL.createObjectURL(blob), type: blob.type, filename };
}
