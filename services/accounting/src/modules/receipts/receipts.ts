import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { FileStorage } from '../../infra/storage/storage.js';
import type { VirusScanner } from '../../infra/virus-scanner/virus-scanner.js';
import { AppError } from '../../lib/errors.js';
import { readForm } from '../../lib/multipart-form.js';

export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
export const RECEIPT_FIELD = 'receiptFile';
/** Decided by the content's magic bytes; the file name and the declared type are ignored (A13). */
const ALLOWED_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);

export interface ReceiptDeps {
  scanner: VirusScanner;
  storage: FileStorage;
  /** Where uploads are staged while they stream in (DATA_DIR/tmp). */
  tmpDir: string;
}

/** An upload that passed the scan and the type check, staged on disk until the expense is valid. */
export interface StagedReceipt {
  path: string;
  contentType: string;
  size: number;
}

export interface ReceiptForm {
  fields: Record<string, string>;
  receipt: StagedReceipt | null;
}

function isCode(err: unknown, code: string): boolean {
  return (err as { code?: unknown } | null)?.code === code;
}

/**
 * Streams the receipt to a staging file and to the virus scanner at once, chunk by chunk, so the
 * upload is never held in memory. Past RECEIPT_MAX_BYTES the multipart stream fails and the
 * upload stops: 413 SVC-4005. Then, in this order (A13): the scan's verdict (422 SVC-4008, clamd
 * down 503 SVC-9007), the type by content (422 SVC-4006). Nothing is stored on any refusal.
 */
async function stage(file: AsyncIterable<Buffer> & { truncated?: boolean }, deps: ReceiptDeps): Promise<StagedReceipt> {
  await mkdir(deps.tmpDir, { recursive: true });
  const path = join(deps.tmpDir, `receipt-${randomUUID()}`);
  const scan = deps.scanner.start();
  const fh = await open(path, 'w');
  let size = 0;
  try {
    try {
      for await (const chunk of file) {
        size += chunk.length;
        await Promise.all([scan.write(chunk), fh.write(chunk)]);
      }
      // The multipart parser stops the file at the limit and marks it truncated.
      if (file.truncated) throw new AppError('SVC-4005', { receiptFile: ['must be at most 10 MB'] });
    } finally {
      await fh.close();
    }
    const signature = await scan.verdict();
    if (signature) throw new AppError('SVC-4008', { receiptFile: [`malware detected: ${signature}`] });
    if (size === 0) throw new AppError('SVC-4006', { receiptFile: ['is empty'] });
    const type = await fileTypeFromFile(path);
    if (!type || !ALLOWED_TYPES.has(type.mime)) {
      throw new AppError('SVC-4006', { receiptFile: ['must be a PDF, PNG or JPEG file (decided by its content)'] });
    }
    return { path, contentType: type.mime, size };
  } catch (err) {
    scan.abort();
    await rm(path, { force: true });
    if (isCode(err, 'FST_REQ_FILE_TOO_LARGE'))
      throw new AppError('SVC-4005', { receiptFile: ['must be at most 10 MB'] });
    throw err;
  }
}

/**
 * Reads a multipart expense form: text fields as strings, and the receipt (field receiptFile)
 * staged by `stage`. A broken form (readForm) and a file under another name are refused.
 */
export async function readReceiptForm(request: FastifyRequest, deps: ReceiptDeps): Promise<ReceiptForm> {
  let staged: StagedReceipt | null = null;
  try {
    const form = await readForm(request, {
      limits: { fileSize: RECEIPT_MAX_BYTES },
      fileField: RECEIPT_FIELD,
      onFile: async (part) => {
        staged = await stage(part.file, deps);
        return staged;
      },
      tooLarge: () => new AppError('SVC-4005', { receiptFile: ['must be at most 10 MB'] }),
    });
    return { fields: form.fields, receipt: form.file?.value ?? null };
  } catch (err) {
    await discardStaged(staged);
    throw err;
  }
}

/** Moves a staged receipt into storage; 500 SVC-4007 when storage fails (the expense is not written). */
export async function storeReceipt(
  deps: ReceiptDeps,
  staged: StagedReceipt,
  key: string,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await deps.storage.putFile(key, staged.path, staged.contentType);
  } catch (err) {
    log.error({ err, key }, 'receipt storage failed');
    await deps.storage.delete(key).catch(() => {});
    throw new AppError('SVC-4007');
  }
}

export function discardStaged(staged: StagedReceipt | null | undefined): Promise<void> {
  return staged ? rm(staged.path, { force: true }) : Promise.resolve();
}

const NUMBER_FIELDS = new Set(['amount', 'taxAmount']);
const NULLABLE_FIELDS = new Set(['vendorId', 'paymentMethod', 'accountId', 'description']);

/**
 * The multipart text fields as the JSON body they stand for, so the same schema validates both:
 * a decimal text becomes a number (anything else stays text and fails validation), an empty
 * optional field counts as absent.
 */
export function formFieldsToBody(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === RECEIPT_FIELD) continue;
    if (value === '' && (NULLABLE_FIELDS.has(name) || name === 'taxAmount' || name === 'currencyCode')) continue;
    body[name] = NUMBER_FIELDS.has(name) && /^-?\d{1,16}(\.\d{1,10})?$/.test(value) ? Number(value) : value;
  }
  return body;
}
