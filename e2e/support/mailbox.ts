import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as it arrived: who it was for, and its whole text with quoted-printable undone. */
export interface ArrivedMail {
  to: string[];
  text: string;
}

/**
 * A real SMTP server in the test process (the `smtp-server` package, as the API suite's
 * backend/test/support/smtp-server.ts), on a free loopback port, without TLS or authentication:
 * the app server mails through it (SMTP_URL = `url`) as through a provider, and the story reads
 * what arrived, as a person reads their inbox.
 */
export class Mailbox {
  private readonly mails: ArrivedMail[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<Mailbox> {
    let self: Mailbox | null = null;
    const server = new SMTPServer({
      logger: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          self?.receive({
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
          });
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    self = new Mailbox(server, (server.server.address() as AddressInfo).port);
    return self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** How many mails have arrived so far (to wait for a later one: `mailTo(address, count)`). */
  get count(): number {
    return this.mails.length;
  }

  /** The first mail to `address` among those arriving after the first `since`, once it is there. */
  async mailTo(address: string, since = 0): Promise<ArrivedMail> {
    const wanted = address.toLowerCase();
    for (;;) {
      const found = this.mails.slice(since).find((mail) => mail.to.includes(wanted));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(mail: ArrivedMail): void {
    this.mails.push(mail);
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Soft line breaks joined and =XX escapes undone: links come out whole, as a mail reader shows them. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
