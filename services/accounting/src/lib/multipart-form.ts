import { drainCap } from '@app/shared/body-limits';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

export interface FormLimits {
  /** The file's limit in bytes (the route's `uploadLimit`). */
  fileSize: number;
  fields?: number;
  fieldSize?: number;
}

export interface FormOptions<T> {
  limits: FormLimits;
  /** The one file field the form takes; undefined: any name. */
  fileField?: string;
  /** Reads the file's stream to its end (or throws); called while the rest of the form waits. */
  onFile(file: MultipartFile): Promise<T>;
  /** The route's own 413 for a file over its limit. */
  tooLarge(): AppError;
}

export interface Form<T> {
  fields: Record<string, string>;
  file: { fieldname: string; value: T } | null;
}

const malformed = (reason: string) => new AppError('SVC-9003', { body: [`malformed multipart body: ${reason}`] });

function isCode(err: unknown, code: string): boolean {
  return (err as { code?: unknown } | null)?.code === code;
}

/** The boundary parameter of a multipart content type, or null. */
function boundaryOf(contentType: string | undefined): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * Counts the delimiter lines of a multipart body as it streams in (the first `--boundary` and
 * every `CRLF--boundary`, the closing one included), so parts the parser skipped without a word
 * (a part without a Content-Disposition form-data header) are noticed: a form of n parts has
 * n + 1 delimiters.
 */
function delimiterCounter(boundary: string) {
  const first = Buffer.from(`--${boundary}`);
  const needle = Buffer.from(`\r\n--${boundary}`);
  let tail: Buffer = Buffer.alloc(0);
  let count = 0;
  let start = true;
  return {
    write(chunk: Buffer) {
      if (start) {
        start = false;
        if (chunk.subarray(0, first.length).equals(first)) count++;
      }
      const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      for (let i = buf.indexOf(needle); i !== -1; i = buf.indexOf(needle, i + needle.length)) count++;
      tail = buf.subarray(Math.max(0, buf.length - needle.length + 1));
    },
    get count() {
      return count;
    },
  };
}

/**
 * Reads a multipart form of text fields and at most one file (issue 25 item 1). Every way a form
 * can be broken answers 4xx in the catalog envelope, never 500: no boundary in the header, framing
 * that never closes or stops midway, a part without Content-Disposition, a second file, a file
 * under another field name, or the file field sent as text (422 SVC-9003 naming the field or
 * `body`); a file over its limit is the route's own 413; too many parts 413 SVC-9009. A body past
 * DRAIN_FACTOR x the limit closes the connection (the shared drain, packages/shared/src/body-limits).
 */
export async function readForm<T>(request: FastifyRequest, opts: FormOptions<T>): Promise<Form<T>> {
  const boundary = boundaryOf(request.headers['content-type']);
  if (!boundary) throw malformed('the content type has no boundary parameter');
  const raw = request.raw;
  const delimiters = delimiterCounter(boundary);
  const cap = drainCap(request, opts.limits.fileSize);
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    delimiters.write(chunk);
    // Past the cap nothing more is read: the connection is closed, the parser sees a premature end.
    if (received > cap) raw.destroy();
  };
  raw.on('data', onData);
  const fields: Record<string, string> = {};
  let file: Form<T>['file'] = null;
  let parts = 0;
  try {
    const iterator = request.parts({
      limits: {
        fileSize: opts.limits.fileSize,
        files: 2,
        fields: opts.limits.fields ?? 30,
        fieldSize: opts.limits.fieldSize ?? 10_000,
        parts: (opts.limits.fields ?? 30) + 2,
      },
    });
    for await (const part of iterator) {
      parts++;
      if (part.type === 'field') {
        if (part.fieldname === opts.fileField) {
          throw new AppError('SVC-9003', { [part.fieldname]: ['must be a file, not a text field'] });
        }
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (file) throw new AppError('SVC-9003', { [part.fieldname]: ['only one file may be sent'] });
      if (opts.fileField && part.fieldname !== opts.fileField) {
        throw new AppError('SVC-9003', { [part.fieldname]: [`unexpected file; send it as ${opts.fileField}`] });
      }
      file = { fieldname: part.fieldname, value: await opts.onFile(part) };
    }
    if (parts + 1 < delimiters.count) throw malformed('a part has no Content-Disposition form-data header');
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isCode(err, 'FST_REQ_FILE_TOO_LARGE')) throw opts.tooLarge();
    if (isCode(err, 'FST_PARTS_LIMIT') || isCode(err, 'FST_FILES_LIMIT') || isCode(err, 'FST_FIELDS_LIMIT')) {
      throw new AppError('SVC-9009', { body: ['has more parts than the form takes'] });
    }
    // Busboy's refusals: unclosed or truncated framing, a malformed part header.
    throw malformed((err as Error).message || 'unreadable');
  } finally {
    raw.removeListener('data', onData);
  }
  return { fields, file };
}
