import { fetchBlob } from '../api/client.js';

/** Fetches an authenticated file (PDF, CSV, XML) and hands it to the browser as a download. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const file = await fetchBlob(path);
  const a = document.createElement('a');
  a.href = file.url;
  a.download = file.filename ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(file.url), 10_000);
}
