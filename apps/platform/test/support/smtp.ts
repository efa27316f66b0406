import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server accepted, with its text part decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
}

function decodePart(headers: string, body: string): string {
  if (/content-transfer-encoding:\s*base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Finds the decoded text/plain and text/html parts of a (multipart) message. */
export function parseMail(raw: string): { subject: string; text: string; html: string } {
  const subject = /^subject:\s*(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  let text = '';
  let html = '';
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split);
    const body = part.slice(split).replace(/^\r?\n\r?\n/, '').replace(/\r?\n--[^\r\n]*--\s*$/, '');
    if (/content-type:\s*text\/plain/i.test(headers)) text = decodePart(headers, body);
    if (/content-type:\s*text\/html/i.test(headers)) html = decodePart(headers, body);
  }
  return { subject, text, html };
}

/**
 * A real SMTP server for tests (no TLS, no auth). Recipients containing
 * "reject" are refused with 550, so a rejected delivery can be tested.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 1000,
      onRcptTo: (address, _session, callback) => {
        if (address.address.includes('reject')) {
          callback(Object.assign(new Error(`Recipient ${address.address} rejected`), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            ...parseMail(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
