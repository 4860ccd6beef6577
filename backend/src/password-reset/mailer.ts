import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { AppConfig, MailSettings } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MailMessage } from './reset-mail';

/**
 * Sends mail through the SMTP server of SMTP_URL as MAIL_FROM (nodemailer, docs/decisions/050).
 * Without them, `configured` is false and nothing is ever sent. One transport, made at the first
 * mail, closed at shutdown. Timeouts far below nodemailer's defaults (minutes): a reset mail is
 * sent after its request was answered, and shutdown waits for the mails under way.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly settings: MailSettings | null;
  private transport: Transporter | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.settings = config.mail;
  }

  get configured(): boolean {
    return this.settings !== null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.settings) throw new Error('Mail is not configured (SMTP_URL, MAIL_FROM)');
    this.transport ??= createTransport({
      url: this.settings.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    await this.transport.sendMail({ from: this.settings.from, ...message });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
