import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that takes uploads larger than the JSON body limit (multipart): its own limit in bytes. */
    uploadLimit?: number;
  }
}

/**
 * How much of a refused body is read and discarded before the answer, as a multiple of the
 * limit it broke (issue 25 item 2): a client that sends too much is still writing when the
 * answer is ready, and a socket closed with unread bytes is reset, so the client gets EPIPE
 * instead of the 413. Past the cap the connection is closed without reading on.
 */
export const DRAIN_FACTOR = 4;
/** A client trickling its body is not waited for longer than this. */
const DRAIN_TIMEOUT_MS = 10_000;

const pastCap = new WeakSet<IncomingMessage>();

/** The most a request to this route may send in all, refused bodies included: DRAIN_FACTOR x its limit. */
export function drainCap(request: FastifyRequest, bodyLimit: number): number {
  return DRAIN_FACTOR * Math.max(bodyLimit, request.routeOptions.config?.uploadLimit ?? 0);
}

/** A route that stopped reading a body past its cap: the answer goes out at once and the connection closes. */
export function stopReadingBody(request: FastifyRequest): void {
  pastCap.add(request.raw);
}

function declaredLength(raw: IncomingMessage): number {
  const n = Number(raw.headers['content-length']);
  return Number.isFinite(n) ? n : 0;
}

/**
 * Before an answer leaves while the request body is still arriving (Fastify refused it as too
 * large, or a route gave up on a form), the rest of the body is read and discarded up to the cap,
 * and the answer says `Connection: close`. Only real sockets have `complete` === false; a body
 * read to its end (every ordinary request) costs one property check.
 */
export function registerBodyDrain(app: FastifyInstance, bodyLimit: number): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (raw.complete !== false) return done(null, payload);
    reply.header('connection', 'close');
    const cap = drainCap(request, bodyLimit);
    if (pastCap.has(raw) || declaredLength(raw) > cap || raw.destroyed) return done(null, payload);
    // A multipart parser that gave up is still piped: it must not see the rest.
    raw.unpipe();
    let seen = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', finish);
      raw.removeListener('error', finish);
      raw.removeListener('close', finish);
      done(null, payload);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) finish();
    };
    const timer = setTimeout(finish, DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}
