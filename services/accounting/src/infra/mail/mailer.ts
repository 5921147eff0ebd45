import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  from: string;
  to: string;
  cc?: string[];
  subject: string;
  text: string;
  /** Message-ID header ("<id@domain>"); set by the caller so it can be stored before delivery. */
  messageId?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  /** Resolves with the SMTP message id once the message is accepted; rejects on any failure. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** Any failure to hand a message over (connection refused, 5xx reply, outbox not writable). */
export class MailDeliveryError extends Error {}

/**
 * A11: SMTP through SMTP_URL; without it each message, attachments included, is written as an
 * .eml file to DATA_DIR/outbox and logged, so development needs no mail server.
 */
/**
 * nodemailer is loaded with the first message, not at start-up (about 10 MB of resident memory a
 * process that sends no mail does not need); the transport is made once.
 */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]) {
  let transport: Promise<Transporter> | null = null;
  return {
    get: () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    close: () =>
      void transport?.then(
        (t) => t.close(),
        () => {},
      ),
  };
}

export function createMailer(opts: { smtpUrl: string | null; outboxDir: string; log?: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    // Bounded waits: a send runs while its invoice row is locked (see invoice-transitions.ts).
    const transport = lazyTransport({
      url: opts.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      async send(m) {
        try {
          const info = await (await transport.get()).sendMail(m);
          return { messageId: info.messageId };
        } catch (err) {
          throw new MailDeliveryError((err as Error).message);
        }
      },
      close: transport.close,
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      try {
        const info = await (await transport.get()).sendMail(m);
        const id = info.messageId.replace(/[<>]/g, '');
        const file = join(
          opts.outboxDir,
          `${new Date().toISOString().replace(/[:.]/g, '-')}-${id.replace(/[^A-Za-z0-9.@-]/g, '_')}.eml`,
        );
        await mkdir(opts.outboxDir, { recursive: true });
        await writeFile(file, info.message as Buffer);
        opts.log?.info({ to: m.to, subject: m.subject, file }, 'e-mail written to the outbox (SMTP_URL not set)');
        return { messageId: info.messageId };
      } catch (err) {
        throw new MailDeliveryError((err as Error).message);
      }
    },
    close: transport.close,
  };
}
