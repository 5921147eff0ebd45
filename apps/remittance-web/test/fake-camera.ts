import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

/**
 * A Y4M video (what Chromium's `--use-file-for-fake-video-capture` plays, in a loop) showing a PNG
 * in the middle of a white 640 x 480 frame, in grey (a QR code needs no colour). Written without
 * ffmpeg: Y4M is a header, then per frame `FRAME\n` and the Y, U and V planes (4:2:0).
 */
export function writeY4m(png: Buffer, path: string, frames = 4): void {
  const image = PNG.sync.read(png);
  const width = 640;
  const height = 480;
  const side = Math.min(400, Math.floor(Math.min(width, height) * 0.85));
  const scale = side / Math.max(image.width, image.height);
  const w = Math.round(image.width * scale);
  const h = Math.round(image.height * scale);
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (Math.floor(y / scale) * image.width + Math.floor(x / scale)) * 4;
      const a = image.data[i + 3] / 255;
      const grey = (image.data[i] + image.data[i + 1] + image.data[i + 2]) / 3;
      // Studio-range luma (16-235), transparent pixels white.
      luma[(top + y) * width + left + x] = Math.round(16 + ((grey * a + 255 * (1 - a)) / 255) * 219);
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
