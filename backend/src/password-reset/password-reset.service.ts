import { createHash, randomBytes } from 'node:crypto';
import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { PASSWORD_RESET } from '@techit/contract/limits';
import { BadRequestError, NotFoundError } from '../common/app-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { PasswordHasher } from '../auth/password-hasher';
import { Mailer } from './mailer';
import { PasswordResetRepository } from './password-reset.repository';
import { resetMail } from './reset-mail';

/** The one answer to every reset request, whether or not an account uses the email. */
export const RESET_REQUESTED =
  'If an account uses that email address, a link to choose a new password is on its way. It works once, within an hour.';
export const PASSWORD_CHANGED = 'Your password has been changed. Sign in with the new one.';
export const INVALID_LINK = 'This password reset link is invalid, already used or expired. Ask for a new one.';

const LIFETIME_MS = PASSWORD_RESET.linkLifetimeMinutes * 60_000;
/** How long shutdown waits for the reset mails under way. */
const SHUTDOWN_WAIT_MS = 5_000;

/** A link's secret: 256 random bits, URL-safe. Only its hash is stored. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function resetLink(origin: string, token: string): string {
  return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Password reset by email (docs/decisions/050-password-reset.md). A request is answered before
 * anything depends on the account: the lookup, the token and the mail happen after the reply, so
 * neither its content nor its time says whether the email has an account, and a slow SMTP server
 * never holds a request. Links are single-use, valid an hour, stored as hashes.
 */
@Injectable()
export class PasswordResetService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PasswordReset');
  /** Reset requests still at work after their reply; shutdown (and the tests) wait for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly resets: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Starts the work of a reset request and returns at once: the caller answers RESET_REQUESTED. */
  request(email: string, origin: string): void {
    // setImmediate: not even the lookup runs before the reply is written (a microtask would, and
    // on SQLite a query runs synchronously in one), so the reply's time cannot depend on the account.
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.mailLink(email, origin))
      .catch((error: unknown) =>
        // The reason only: never the address, the token or the link.
        this.logger.error(
          `A password reset mail could not be sent: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once every reset request so far has finished its work (mail sent or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Lets the mails under way finish, for at most SHUTDOWN_WAIT_MS: the graceful shutdown exits
   * anyway 15 s after the signal (http/graceful-shutdown.ts), and a mail still waiting for a dead
   * SMTP server then is lost either way (the person asks again).
   */
  async beforeApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), SHUTDOWN_WAIT_MS);
    });
    const gaveUp = await Promise.race([this.settled().then(() => false), timedOut]);
    clearTimeout(timer);
    if (gaveUp) this.logger.warn(`Shutting down with ${this.pending.size} password reset mail(s) not sent`);
  }

  /**
   * Sets the password of the link's account, uses the link up with every other link of that user,
   * and ends every session. An unknown, used or expired link changes nothing.
   */
  async confirm(token: string, password: string): Promise<void> {
    const tokenHash = hashToken(token);
    // Checked before hashing the password: argon2 costs a core for ~50 ms, not spent on bad links.
    if (!(await this.resets.isLive(tokenHash, new Date().toISOString()))) throw new BadRequestError(INVALID_LINK);
    const passwordHash = await this.hasher.hash(password);
    const done = await this.transactions.run(async (trx) => {
      // Checked again as it is used up: another confirmation may have taken it meanwhile.
      const userId = await this.resets.take(tokenHash, new Date().toISOString(), trx);
      if (userId === undefined) return false;
      await this.resets.deleteAllOf(userId, trx);
      await this.resets.setPasswordEndingSessions(userId, passwordHash, trx);
      return true;
    });
    if (!done) throw new BadRequestError(INVALID_LINK);
  }

  /** `npm run admin -- reset-password NAME`: a link as the mail would carry, for an admin to pass on. */
  async linkFor(userName: string, origin: string): Promise<{ userName: string; link: string; expiresAt: string }> {
    const account = await this.resets.accountByUserName(userName);
    if (!account) throw new NotFoundError(`No user is named "${userName}"`);
    const { token, expiresAt } = await this.issue(account.id);
    return { userName: account.user_name, link: resetLink(origin, token), expiresAt };
  }

  private async mailLink(email: string, origin: string): Promise<void> {
    const account = await this.resets.accountByEmail(email);
    if (!this.mailer.configured) {
      // Never the token, the link or the address; the account's id lets an admin act on it.
      this.logger.warn(
        `A password reset was asked for${account ? ` (user ${account.id})` : ' (no account uses that email)'}, but mail is not configured (SMTP_URL, MAIL_FROM): nothing was sent. An admin can run: npm run admin -- reset-password <userName>`,
      );
      return;
    }
    if (!account) return;
    const { token } = await this.issue(account.id);
    await this.mailer.send(resetMail(account.email, account.user_name, resetLink(origin, token)));
  }

  private async issue(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + LIFETIME_MS).toISOString();
    await this.resets.insert(hashToken(token), userId, now.toISOString(), expiresAt);
    return { token, expiresAt };
  }
}
