import nodemailer from 'nodemailer';
import type { Mailer, OutgoingEmail } from '../domain/email/types';

/**
 * The Mailer port over nodemailer: SMTP when `smtpUrl` is set; otherwise the
 * message is only captured (the email log keeps it, marked sent), so an
 * embedded start can follow a password reset without a mail server.
 */
export function createMailer(options: { smtpUrl?: string; from: string; timeoutMs: number }): Mailer & { close(): void } {
  const transport = options.smtpUrl
    ? nodemailer.createTransport(smtpOptions(options.smtpUrl, options.timeoutMs))
    : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message: OutgoingEmail) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'X-Shop-Email-Type': message.type },
      });
    },
    close: () => transport.close(),
  };
}

/** smtp[s]://user:pass@host:port?ignoreTLS=true -> nodemailer SMTP options (with timeouts). */
function smtpOptions(smtpUrl: string, timeoutMs: number) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    tls: { rejectUnauthorized: url.searchParams.get('rejectUnauthorized') !== 'false' },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}
