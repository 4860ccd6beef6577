import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, with its text and HTML parts decoded. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Record<string, string>;
  raw: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server in this process (the `smtp-server` package, nodemailer's own test server),
 * on a free loopback port, without TLS or authentication: the app under test mails through it
 * as it would through a provider's, and the suite reads what arrived (the API suite's password
 * reset tests, and the journey that follows the link from the mail as a person would). `latencyMs` makes it
 * answer each message that much later, as a slow provider does.
 */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  latencyMs = 0;
  /** While true, messages are held unanswered (a provider that hangs) until release(). */
  holding = false;
  private held: (() => void)[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<TestSmtpServer> {
    let self: TestSmtpServer | null = null;
    const server = new SMTPServer({
      logger: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = parseMail(raw);
          mail.envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          mail.envelopeTo = session.envelope.rcptTo.map((recipient) => recipient.address);
          const accept = () => {
            self?.receive(mail);
            callback();
          };
          if (self?.holding) self.hold(accept);
          else if (self && self.latencyMs > 0) setTimeout(accept, self.latencyMs);
          else accept();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    self = new TestSmtpServer(server, (server.server.address() as AddressInfo).port);
    return self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /**
   * The first mail to `address` (compared in lower case, as mail systems treat them) received
   * after `since` mails had arrived, once it has arrived.
   */
  async mailTo(address: string, since = 0, timeoutMs = 60_000): Promise<ReceivedMail> {
    const wanted = address.toLowerCase();
    const find = () =>
      this.mails.slice(since).find((mail) => mail.envelopeTo.some((to) => to.toLowerCase() === wanted));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${address} arrived (received: ${this.mails.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Answers every held message and stops holding. */
  release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    for (const accept of held) accept();
  }

  /** Resolves once `count` messages are held unanswered. */
  async untilHeld(count: number): Promise<void> {
    while (this.held.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private hold(accept: () => void): void {
    this.held.push(accept);
    this.wake();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(mail: ReceivedMail): void {
    this.mails.push(mail);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Just enough MIME for the mails under test: headers, and the text/plain and text/html parts. */
function parseMail(raw: string): ReceivedMail {
  const { headers, body } = splitEntity(raw);
  const parts: { headers: Record<string, string>; body: string }[] = [];
  collectParts(headers, body, parts);
  const partOf = (type: string) => parts.find((part) => (part.headers['content-type'] ?? '').startsWith(type));
  const decoded = (part: { headers: Record<string, string>; body: string } | undefined) =>
    part ? decodeBody(part.body, part.headers['content-transfer-encoding'] ?? '7bit') : '';
  return {
    envelopeFrom: '',
    envelopeTo: [],
    headers,
    raw,
    text: decoded(partOf('text/plain')),
    html: decoded(partOf('text/html')),
  };
}

function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const end = entity.indexOf('\r\n\r\n');
  const head = end === -1 ? entity : entity.slice(0, end);
  const body = end === -1 ? '' : entity.slice(end + 4);
  const headers: Record<string, string> = {};
  // Folded header lines continue with white space.
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function collectParts(
  headers: Record<string, string>,
  body: string,
  parts: { headers: Record<string, string>; body: string }[],
): void {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.startsWith('multipart/') || !boundary) {
    parts.push({ headers, body });
    return;
  }
  const sections = body.split(`--${boundary}`).slice(1);
  for (const section of sections) {
    if (section.startsWith('--')) break;
    const part = splitEntity(section.replace(/^\r\n/, ''));
    collectParts(part.headers, part.body.replace(/\r\n$/, ''), parts);
  }
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}
