import { ApiError, session } from './client.js';

/**
 * A multipart upload with progress (receipts, bank statements). `fetch` reports no upload progress, so
 * this one call uses XMLHttpRequest; the bearer token, the refresh on 401 and the error envelope (A1)
 * are handled as the typed client handles them. `onProgress` receives 0..1.
 */
export async function upload<T>(
  method: 'POST' | 'PUT',
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  let res = await send(method, path, form, onProgress);
  if (res.status === 401 && (await session.refresh())) res = await send(method, path, form, onProgress);
  const body = parse(res.text);
  if (res.status >= 200 && res.status < 300) return body as T;
  const envelope = (body ?? {}) as { error?: { code?: string; message?: string; details?: Record<string, string[]> } };
  throw new ApiError(
    res.status,
    envelope.error?.code ?? `HTTP-${res.status}`,
    envelope.error?.message ?? res.statusText,
    envelope.error?.details,
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function send(
  method: string,
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<{ status: number; statusText: string; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    if (session.accessToken) xhr.setRequestHeader('authorization', `Bearer ${session.accessToken}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress?.(1);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    xhr.onerror = () => reject(new Error('network error'));
    xhr.send(form);
  });
}
