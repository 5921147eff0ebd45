import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';

/**
 * Issue 25 item 2, over a real socket (undici, not inject): a client that sends more than the
 * limit must read the service's 413 (or other 4xx) in its envelope. The body is streamed in
 * chunks and counted as undici pulls it, so a test also sees whether the server read the whole
 * body before it answered (a server that answers and closes mid-body resets the connection:
 * the client then gets EPIPE or ECONNRESET instead of the answer).
 */
export interface OversizeAnswer {
  status: number;
  connection: string | undefined;
  body: unknown;
  /** Bytes of the body the client got to send. */
  sent: number;
  total: number;
}

export async function sendOversized(
  origin: string,
  path: string,
  opts: {
    method?: 'POST' | 'PUT' | 'PATCH';
    headers: Record<string, string>;
    /** The body as a prefix, `fill` repeated to `size` bytes, and a suffix. */
    prefix: string | Buffer;
    fill: string;
    size: number;
    suffix: string | Buffer;
    /** Declare Content-Length (true) or send chunked (false). */
    declareLength: boolean;
  },
): Promise<OversizeAnswer> {
  const head = Buffer.isBuffer(opts.prefix) ? opts.prefix : Buffer.from(opts.prefix);
  const tail = Buffer.isBuffer(opts.suffix) ? opts.suffix : Buffer.from(opts.suffix);
  const block = Buffer.from(opts.fill.repeat(Math.ceil(65_536 / opts.fill.length)).slice(0, 65_536));
  const total = head.length + opts.size + tail.length;
  let sent = 0;
  function* chunks() {
    sent += head.length;
    yield head;
    for (let left = opts.size; left > 0; left -= block.length) {
      const c = left >= block.length ? block : block.subarray(0, left);
      sent += c.length;
      yield c;
    }
    sent += tail.length;
    yield tail;
  }
  const headers = { ...opts.headers, ...(opts.declareLength ? { 'content-length': String(total) } : {}) };
  const res = await request(`${origin}${path}`, {
    method: opts.method ?? 'POST',
    headers,
    body: Readable.from(chunks(), { objectMode: false }),
  });
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const connection = res.headers.connection;
  return {
    status: res.statusCode,
    connection: Array.isArray(connection) ? connection[0] : connection,
    body,
    sent,
    total,
  };
}

/**
 * A client that writes its whole request before it reads (as many HTTP libraries do). `writeError`
 * is the socket error a write got (EPIPE, ECONNRESET: the server reset the connection under it,
 * and such a client reports that instead of the answer); `status` and `body` what it could read.
 */
export async function sendWriteFirst(
  origin: string,
  path: string,
  opts: { headers: Record<string, string>; body: Buffer },
): Promise<{ status: number | null; body: string; writeError: string | null }> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  const received: Buffer[] = [];
  socket.on('data', (c: Buffer) => received.push(c));
  const ended = new Promise<void>((resolve) => {
    socket.once('error', () => resolve());
    socket.once('close', () => resolve());
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    ...Object.entries({ ...opts.headers, 'content-length': String(opts.body.length) }).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  const write = (b: Buffer | string) =>
    new Promise<string | null>((resolve) =>
      socket.write(b, (err) => resolve(err ? ((err as Error & { code?: string }).code ?? 'error') : null)),
    );
  let writeError = await write(head);
  for (let i = 0; !writeError && i < opts.body.length; i += 65_536) {
    writeError = await write(opts.body.subarray(i, i + 65_536));
  }
  // Written (or failed): read what the server sent until it closes the connection.
  await ended;
  socket.destroy();
  const text = Buffer.concat(received).toString('latin1');
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return { status: m ? Number(m[1]) : null, body: text.slice(text.indexOf('\r\n\r\n') + 4), writeError };
}
