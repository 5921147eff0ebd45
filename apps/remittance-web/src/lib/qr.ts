/** The merchant's QR value (R12: `app://pay/<merchantId>`) -> the merchant id, or null. */
export function merchantIdOf(value: string): string | null {
  const text = value.trim();
  const m = /^app:\/\/pay\/([A-Za-z0-9_-]{4,64})$/.exec(text);
  return m ? m[1] : null;
}

/** Reads a QR code from image pixels (an uploaded picture or a camera frame); jsQR loads on first use. */
export async function decodeQr(image: ImageData): Promise<string | null> {
  const { default: jsQR } = await import('jsqr');
  return jsQR(image.data, image.width, image.height)?.data ?? null;
}

/** The pixels of an uploaded image file, scaled down to at most 1024 px on the longer side. */
export async function pixelsOf(file: Blob): Promise<ImageData> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1024 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}
