import { connect, type Socket } from 'node:net';
import { AppError } from '../../lib/errors.js';

/**
 * Virus scanning of uploads (A13). A scan is fed chunk by chunk while the upload streams in, so
 * the file is never held in memory; `verdict()` answers once the last chunk is in.
 *
 * - clamd (CLAMAV_SOCKET, or CLAMAV_HOST/CLAMAV_PORT): the INSTREAM command, each chunk framed
 *   with its 4-byte big-endian length, a zero length ends the stream; clamd answers
 *   "stream: OK" or "stream: <signature> FOUND". Unreachable, slow past the timeout or an error
 *   answer: 503 SVC-9007 (the upload is refused, nothing is stored).
 * - none configured: a built-in check that knows only the EICAR test file (a warning at start-up
 *   says no scanner is configured).
 */
export interface ScanSession {
  write(chunk: Buffer): Promise<void>;
  /** The signature name when infected, null when clean. */
  verdict(): Promise<string | null>;
  abort(): void;
}

export interface VirusScanner {
  readonly kind: 'clamd' | 'builtin';
  start(): ScanSession;
}

export type ClamdTarget = { socket: string } | { host: string; port: number };

export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

const unavailable = (why: string) => new AppError('SVC-9007', { virusScan: [why] }, { 'retry-after': 2 });

export function clamdScanner(target: ClamdTarget, timeoutMs: number): VirusScanner {
  return {
    kind: 'clamd',
    start() {
      let failure: Error | null = null;
      let answer = '';
      let settled = false;
      let resolveDone!: (text: string) => void;
      let rejectDone!: (err: Error) => void;
      const done = new Promise<string>((res, rej) => {
        resolveDone = res;
        rejectDone = rej;
      });
      done.catch(() => {});
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        failure = err;
        rejectDone(err);
        socket.destroy();
      };
      const socket: Socket = 'socket' in target ? connect(target.socket) : connect(target.port, target.host);
      socket.setTimeout(timeoutMs, () => fail(unavailable(`clamd did not answer within ${timeoutMs} ms`)));
      socket.on('error', (err) => fail(unavailable(`clamd unreachable: ${err.message}`)));
      socket.on('data', (d) => {
        answer += d.toString('utf8');
      });
      socket.on('end', () => {
        if (settled) return;
        settled = true;
        resolveDone(answer);
      });
      socket.on('close', () => {
        if (!settled) fail(unavailable('clamd closed the connection'));
      });
      socket.write('zINSTREAM\0');

      const send = (buf: Buffer) =>
        new Promise<void>((resolve) => {
          if (failure || socket.destroyed) return resolve();
          if (socket.write(buf)) resolve();
          else socket.once('drain', () => resolve());
        });

      return {
        async write(chunk) {
          if (failure) throw failure;
          if (chunk.length === 0) return;
          const len = Buffer.alloc(4);
          len.writeUInt32BE(chunk.length);
          await send(Buffer.concat([len, chunk]));
        },
        async verdict() {
          if (failure) throw failure;
          await send(Buffer.alloc(4));
          const text = (await done).replace(/\0/g, '').trim();
          const found = /^stream: (.+) FOUND$/.exec(text);
          if (found) return found[1];
          if (text === 'stream: OK') return null;
          throw unavailable(`clamd answered: ${text.slice(0, 200)}`);
        },
        abort() {
          fail(new Error('aborted'));
        },
      };
    },
  };
}

/** Finds the EICAR test string anywhere in the stream, also across chunk boundaries. */
export function builtinScanner(): VirusScanner {
  const needle = Buffer.from(EICAR, 'latin1');
  return {
    kind: 'builtin',
    start() {
      let tail = Buffer.alloc(0);
      let found = false;
      return {
        async write(chunk) {
          if (found) return;
          const window = Buffer.concat([tail, chunk]);
          if (window.includes(needle)) found = true;
          tail = window.subarray(Math.max(0, window.length - (needle.length - 1)));
        },
        async verdict() {
          return found ? 'Eicar-Test-Signature' : null;
        },
        abort() {},
      };
    },
  };
}

export interface ScannerConfig {
  socket: string | null;
  host: string | null;
  port: number;
  timeoutMs: number;
}

export function createVirusScanner(c: ScannerConfig): VirusScanner {
  if (c.socket) return clamdScanner({ socket: c.socket }, c.timeoutMs);
  if (c.host) return clamdScanner({ host: c.host, port: c.port }, c.timeoutMs);
  return builtinScanner();
}
