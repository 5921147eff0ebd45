import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters whose values are credentials: OAuth/OIDC codes and states, tokens, signatures. */
const SECRET_QUERY =
  /^(code|state|token|access_token|refresh_token|id_token|session_state|secret|signature|password|key)$/i;

export const REDACTED = '[redacted]';

/**
 * A URL as it may be logged (issue 33 item 9): the values of credential-like query parameters are
 * masked, and so is the rest of a path after one of `secretPaths` (a prefix such as
 * '/api/v1/public/invoices/', whose next segment is a capability token).
 */
export function maskUrl(url: string, secretPaths: readonly string[] = []): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const prefix of secretPaths) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      path = `${prefix}${REDACTED}`;
      break;
    }
  }
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return eq !== -1 && SECRET_QUERY.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** "kupac@example.test" -> "k***@example.test": enough to tell messages apart, not to harvest. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  return at > 0 ? `${value[0]}***${value.slice(at)}` : REDACTED;
}

const EMAIL_KEYS = new Set(['to', 'cc', 'bcc', 'email']);

/**
 * The logger options of both services: the request serializer masks tokens in paths and queries,
 * and `redact` removes credentials and masks e-mail addresses wherever a log line carries them.
 */
export function loggerOptions(level: string, secretPaths: readonly string[] = []): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        'password',
        'token',
        'accessToken',
        'refreshToken',
        'to',
        'cc',
        'bcc',
        'email',
        '*.password',
        '*.token',
        '*.email',
      ],
      censor: (value: unknown, path: string[]) => {
        const key = path[path.length - 1];
        if (!EMAIL_KEYS.has(key)) return REDACTED;
        if (typeof value === 'string') return maskEmail(value);
        if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? maskEmail(v) : REDACTED));
        return REDACTED;
      },
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: maskUrl(req.url, secretPaths),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
