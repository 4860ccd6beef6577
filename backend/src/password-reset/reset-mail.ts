import { PASSWORD_RESET } from '@techit/contract/limits';
import { html } from '../pages/html';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The reset mail: plain text for every client, and a simple HTML part with the same words. Every
 * value goes into the HTML through `html` (escaped); the link is this site's own (PUBLIC_URL or the
 * request's origin) with a base64url token, so it needs no more.
 */
export function resetMail(to: string, userName: string, link: string): MailMessage {
  const minutes: number = PASSWORD_RESET.linkLifetimeMinutes;
  const lifetime = minutes === 60 ? '1 hour' : `${minutes} minutes`;
  const text = [
    `Hello ${userName},`,
    '',
    'Someone (we hope you) asked to reset the password of your TechIt account.',
    `Choose a new password here within ${lifetime}; the link works once:`,
    '',
    link,
    '',
    'If you did not ask for this, ignore this mail: your password stays as it is.',
    '',
  ].join('\n');
  const body = html`<!doctype html>
    <html>
      <body>
        <p>Hello ${userName},</p>
        <p>Someone (we hope you) asked to reset the password of your TechIt account.</p>
        <p>Choose a new password within ${lifetime}; the link works once:</p>
        <p><a href="${link}">Choose a new password</a></p>
        <p>Or copy this address into your browser: ${link}</p>
        <p>If you did not ask for this, ignore this mail: your password stays as it is.</p>
      </body>
    </html> `;
  return { to, subject: 'Reset your TechIt password', text, html: body.value };
}
