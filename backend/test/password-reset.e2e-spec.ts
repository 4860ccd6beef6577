import { type ReceivedMail, TestSmtpServer } from '@techit/testkit/smtp-server';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { PASSWORD_RESET } from '@techit/contract/limits';
import {
  INVALID_LINK,
  PASSWORD_CHANGED,
  PasswordResetService,
  RESET_REQUESTED,
} from '../src/password-reset/password-reset.service';
import { createUser, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * Password reset by email (issue 20, docs/decisions/050-password-reset.md), against a real SMTP
 * server running in this process: the mail that arrives is read, and its link followed.
 */

const MAIL_FROM = 'TechIt <no-reply@techit.test>';
const PUBLIC_URL = 'https://techit.test';
const LINK = /^https:\/\/techit\.test\/reset-password\?token=([A-Za-z0-9_-]{43})$/m;

let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM, PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Waits until every reset request so far has done its work after its reply (mail sent or not). */
function settled(app: TestApp = t): Promise<void> {
  return app.app.get(PasswordResetService).settled();
}

function askReset(email: unknown, app: TestApp = t) {
  return app.http.post('/api/password-reset').send({ email });
}

function confirm(token: unknown, password: unknown, app: TestApp = t) {
  return app.http.post('/api/password-reset/confirm').send({ token, password });
}

/** Asks for a reset of `user`'s account and answers the mail that arrives for it. */
async function resetMailFor(user: TestUser): Promise<{ mail: ReceivedMail; token: string }> {
  const since = smtp.mails.length;
  const reply = await askReset(user.email);
  expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: { message: RESET_REQUESTED } });
  const mail = await smtp.mailTo(user.email, since);
  const token = LINK.exec(mail.text)?.[1];
  if (!token) throw new Error(`No reset link in the mail's text:\n${mail.text}`);
  return { mail, token };
}

async function signIn(userName: string, password: string, app: TestApp = t) {
  return app.http.post('/api/signin').send({ userName, password });
}

async function resetRows(userId: string, app: TestApp = t) {
  return app.db.selectFrom('password_resets').selectAll().where('user_id', '=', userId).execute();
}

describe('POST /api/password-reset and the mail it sends', () => {
  it('mails a link whose token, sent to /confirm, sets the new password and ends every session', async () => {
    const user = await createUser(t);
    const otherSession = (await signIn(user.userName, user.password)).body.token as string;
    const { mail, token } = await resetMailFor(user);

    expect(mail.envelopeFrom).toBe('no-reply@techit.test');
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.headers.to).toBe(user.email);
    expect(mail.headers.subject).toBe('Reset your TechIt password');
    expect(mail.text).toContain(`Hello ${user.userName},`);
    expect(mail.text).toContain('within 1 hour');
    const link = LINK.exec(mail.text)![0];
    // The HTML part carries the same link, as a link and as text.
    expect(mail.html).toContain(`<a href="${link}">`);
    expect(mail.html).toContain(`Hello ${user.userName},`);
    // Only the token's hash is stored, never the token.
    const rows = await resetRows(user.id);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at)).toBe(
      PASSWORD_RESET.linkLifetimeMinutes * 60_000,
    );

    const done = await confirm(token, 'a brand new passphrase');
    expect({ status: done.status, body: done.body }).toEqual({ status: 200, body: { message: PASSWORD_CHANGED } });
    expect((await signIn(user.userName, 'a brand new passphrase')).status).toBe(200);
    expect((await signIn(user.userName, user.password)).status).toBe(401);
    // Every session that existed ends (token_version), the one from sign-up and the other one.
    for (const session of [user.token, otherSession]) {
      const reply = await t.http.get('/api/notifications/unread-count').set('Authorization', `Bearer ${session}`);
      expect(reply.status).toBe(401);
    }
    expect(await resetRows(user.id)).toEqual([]);
  });

  it('finds the account whatever the case of the email, and mails the address the account has', async () => {
    const user = await createUser(t, { email: `Mixed.Case_${process.pid}@Example.com` });
    const since = smtp.mails.length;
    expect((await askReset(user.email.toUpperCase())).status).toBe(200);
    const mail = await smtp.mailTo(user.email, since);
    // The account's address as stored (its local part's case), the domain as DNS has it (nodemailer lower-cases it).
    const stored = user.email.replace(/@.*$/, (domain) => domain.toLowerCase());
    expect({ to: mail.headers.to, envelopeTo: mail.envelopeTo }).toEqual({ to: stored, envelopeTo: [stored] });
  });

  it('works once: the used link is refused with 400 and changes nothing', async () => {
    const user = await createUser(t);
    const { token } = await resetMailFor(user);
    expect((await confirm(token, 'the first new password')).status).toBe(200);
    await expectDatabaseUnchanged(t.db, async () => {
      const again = await confirm(token, 'a second new password');
      expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: { error: INVALID_LINK } });
    });
    expect((await signIn(user.userName, 'the first new password')).status).toBe(200);
  });

  it('lets only one of two confirmations racing with the same link through', async () => {
    const user = await createUser(t);
    const { token } = await resetMailFor(user);
    const replies = await Promise.all([confirm(token, 'the first racer'), confirm(token, 'the second racer')]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400]);
    const winner = replies[0].status === 200 ? 'the first racer' : 'the second racer';
    const loser = winner === 'the first racer' ? 'the second racer' : 'the first racer';
    expect((await signIn(user.userName, winner)).status).toBe(200);
    expect((await signIn(user.userName, loser)).status).toBe(401);
  });

  it('uses up every other link of the account when one is used', async () => {
    const user = await createUser(t);
    const first = await resetMailFor(user);
    const second = await resetMailFor(user);
    expect(first.token).not.toBe(second.token);
    expect(await resetRows(user.id)).toHaveLength(2);
    expect((await confirm(second.token, 'from the second mail')).status).toBe(200);
    const older = await confirm(first.token, 'from the first mail');
    expect({ status: older.status, body: older.body }).toEqual({ status: 400, body: { error: INVALID_LINK } });
    expect((await signIn(user.userName, 'from the second mail')).status).toBe(200);
  });

  it('refuses a link past its expiry with 400, changing nothing', async () => {
    const user = await createUser(t);
    const { token } = await resetMailFor(user);
    // An hour and a second later, as far as the link is concerned.
    const past = new Date(Date.now() - 1000).toISOString();
    await t.db.updateTable('password_resets').set({ expires_at: past }).where('user_id', '=', user.id).execute();
    await expectDatabaseUnchanged(t.db, async () => {
      const reply = await confirm(token, 'too late for this');
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 400, body: { error: INVALID_LINK } });
    });
    expect((await signIn(user.userName, user.password)).status).toBe(200);
    // The session from before still works: nothing ended.
    expect((await t.http.get('/api/notifications/unread-count').set('Authorization', user.auth)).status).toBe(200);
  });

  it('refuses an unknown token, and bad input, with 400 and changes nothing', async () => {
    const user = await createUser(t);
    const { token } = await resetMailFor(user);
    const refusals: [unknown, unknown, RegExp][] = [
      ['A'.repeat(43), 'a good new password', /invalid, already used or expired/],
      [`${token}x`, 'a good new password', /invalid, already used or expired/],
      [token, 'short', /password must be 8 to 128 characters/],
      [token, ' '.repeat(10), /password is required/],
      [token, 'x'.repeat(129), /password must be 8 to 128 characters/],
      [token, undefined, /password is required/],
      [undefined, 'a good new password', /token is required/],
      ['x'.repeat(201), 'a good new password', /token must be at most 200 characters/],
      [{ $ne: null }, 'a good new password', /token must be text/],
    ];
    await expectDatabaseUnchanged(t.db, async () => {
      for (const [badToken, password, error] of refusals) {
        const reply = await confirm(badToken, password);
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: 400,
          body: { error: expect.stringMatching(error) },
        });
      }
      for (const email of [undefined, '', 'not an email', 42, `${'a'.repeat(250)}@example.com`]) {
        const reply = await askReset(email);
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: 400,
          body: { error: expect.any(String) },
        });
      }
      await settled();
    });
    // The link survived every refusal.
    expect((await confirm(token, 'a good new password')).status).toBe(200);
  });

  describe('no account enumeration', () => {
    it('answers an unknown email byte for byte as a known one, and mails only the known one', async () => {
      const user = await createUser(t);
      const unknown = `nobody_${process.pid}@example.com`;
      const since = smtp.mails.length;
      const known = await askReset(user.email);
      const stranger = await askReset(unknown);
      expect(known.status).toBe(200);
      expect(stranger.status).toBe(known.status);
      expect(stranger.text).toBe(known.text);
      expect(stranger.headers['content-type']).toBe(known.headers['content-type']);
      expect(stranger.headers['content-length']).toBe(known.headers['content-length']);
      await smtp.mailTo(user.email, since);
      await settled();
      expect(smtp.mails.slice(since).map((mail) => mail.envelopeTo)).toEqual([[user.email]]);
    });

    it('takes about the same time for an unknown email as for a known one, even with a slow SMTP server', async () => {
      const user = await createUser(t);
      const WARM_UP = 2;
      const ROUNDS = 11;
      const times = { known: [] as number[], unknown: [] as number[] };
      // A provider that takes 300 ms to accept a message: a reply that waited for the mail would
      // show it, ten times and more the time of a reply that did not.
      smtp.latencyMs = 300;
      try {
        const timed = async (kind: keyof typeof times, round: number) => {
          const email = kind === 'known' ? user.email : `nobody_${round}_${process.pid}@example.com`;
          const started = performance.now();
          const reply = await askReset(email);
          const elapsed = performance.now() - started;
          expect(reply.status).toBe(200);
          if (round >= WARM_UP) times[kind].push(elapsed);
        };
        // Interleaved, the first of each pair alternating, so the machine's load falls on both.
        for (let round = 0; round < WARM_UP + ROUNDS; round += 1) {
          const order: (keyof typeof times)[] = round % 2 === 0 ? ['known', 'unknown'] : ['unknown', 'known'];
          for (const kind of order) await timed(kind, round);
        }
        await settled();
      } finally {
        smtp.latencyMs = 0;
      }
      const known = median(times.known);
      const unknown = median(times.unknown);
      // Medians of a few, and a generous ratio: a loaded shared machine is noisy, but a leak (the
      // lookup or the mail in the reply's path) is a gap of many times.
      const ratio = Math.max(known, unknown) / Math.min(known, unknown);
      expect({ known, unknown, withinThreeTimes: ratio <= 3 }).toEqual({ known, unknown, withinThreeTimes: true });
    }, 60_000);
  });
});

describe('the origin of the mailed link', () => {
  // Without PUBLIC_URL the server does not start with mail on (app-config.spec: a forged Host would
  // otherwise choose the link's site).
  it('is PUBLIC_URL, whatever Host or X-Forwarded-Host the request carries', async () => {
    const site = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM, PUBLIC_URL: 'https://techit.example' });
    try {
      const user = await createUser(site);
      const since = smtp.mails.length;
      await site.http
        .post('/api/password-reset')
        .set('Host', 'evil.example')
        .set('X-Forwarded-Host', 'evil.example')
        .set('X-Forwarded-Proto', 'http')
        .send({ email: user.email })
        .expect(200);
      const mail = await smtp.mailTo(user.email, since);
      expect(mail.text).toMatch(/^https:\/\/techit\.example\/reset-password\?token=[A-Za-z0-9_-]{43}$/m);
      expect(mail.raw).not.toContain('evil.example');
    } finally {
      await site.close();
    }
  });
});

describe('shutting down', () => {
  it('waits for the mails under way, but not for an SMTP server that never answers', async () => {
    const site = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM, PUBLIC_URL });
    const warn = jest.spyOn(Logger.prototype, 'warn');
    smtp.holding = true;
    try {
      const user = await createUser(site);
      await askReset(user.email, site).expect(200);
      // The mail has reached the server, which holds it unanswered.
      await smtp.untilHeld(1);
      await site.close();
      expect(warn.mock.calls.map((call) => String(call[0]))).toContain(
        'Shutting down with 1 password reset mail(s) not sent',
      );
    } finally {
      warn.mockRestore();
      smtp.release();
    }
  }, 30_000);
});

describe('without SMTP configured, and with the rate limits on', () => {
  let bare: TestApp;

  beforeAll(async () => {
    bare = await startTestApp({
      RATE_LIMITS: 'on',
      RATE_LIMIT_PASSWORD_RESET: '8/1h',
      RATE_LIMIT_PASSWORD_RESET_EMAIL: '2/1h',
    });
  });
  afterAll(() => bare?.close());

  it('answers the same, stores no link and logs that mail is not configured, never the token', async () => {
    const user = await createUser(bare);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const reply = await askReset(user.email, bare);
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: { message: RESET_REQUESTED } });
      await settled(bare);
      const lines = warn.mock.calls.map((call) => String(call[0]));
      expect(lines).toEqual([expect.stringContaining('mail is not configured')]);
      expect(lines[0]).toContain('npm run admin -- reset-password');
      expect(lines[0]).not.toContain(user.email);
      expect(lines[0]).not.toContain('token=');
    } finally {
      warn.mockRestore();
    }
    expect(await resetRows(user.id, bare)).toEqual([]);
  });

  it('limits requests per email (known or not, any case) and per address, with 429 and Retry-After', async () => {
    const user = await createUser(bare);
    const unknown = `Nobody_${process.pid}@example.com`;
    for (const email of [user.email, unknown]) {
      expect((await askReset(email, bare)).status).toBe(200);
      expect((await askReset(email.toUpperCase(), bare)).status).toBe(200);
      const third = await askReset(email, bare);
      expect({ status: third.status, body: third.body }).toEqual({ status: 429, body: { error: expect.any(String) } });
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The address has spent 7 of its 8 (1 above, 6 here: a request refused for its email counts
    // against the address too). Confirmations count there as well: one more goes through, then
    // the address is refused, whatever it asks.
    expect((await confirm('A'.repeat(43), 'a good new password', bare)).status).toBe(400);
    const refused = await confirm('A'.repeat(43), 'a good new password', bare);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: { error: expect.any(String) },
    });
    const fresh = await askReset(`fresh_${process.pid}@example.com`, bare);
    expect(fresh.status).toBe(429);
  });
});

describe('npm run admin -- reset-password NAME', () => {
  function runAdmin(...args: string[]): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(__dirname, '../dist/admin/admin.cli.js'), ...args], {
        cwd: t.config.dataDir,
        env: {
          ...process.env,
          DATA_DIR: t.config.dataDir,
          DATABASE_URL: t.config.databaseUrl ?? '',
          PUBLIC_URL: 'https://techit.example',
          LOG_LEVEL: 'silent',
        },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  it('prints a one-time link, valid an hour, that sets the password', async () => {
    const user = await createUser(t);
    const run = await runAdmin('reset-password', user.userName.toUpperCase());
    expect(run.code).toBe(0);
    const token = /^https:\/\/techit\.example\/reset-password\?token=([A-Za-z0-9_-]{43})$/m.exec(run.output)?.[1];
    expect({ output: run.output, token }).toEqual({
      output: expect.stringContaining(user.userName),
      token: expect.any(String),
    });
    const [row] = await resetRows(user.id);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(PASSWORD_RESET.linkLifetimeMinutes * 60_000);
    expect((await confirm(token, 'set through the admin link')).status).toBe(200);
    expect((await signIn(user.userName, 'set through the admin link')).status).toBe(200);
    expect((await confirm(token, 'and once more')).status).toBe(400);
  });

  it('says so, and changes nothing, for a user that does not exist', async () => {
    const before = await snapshot(t.db);
    const run = await runAdmin('reset-password', `nobody_${process.pid}`);
    expect(run).toEqual({ code: 1, output: expect.stringContaining(`No user is named "nobody_${process.pid}"`) });
    expect(await snapshot(t.db)).toBe(before);
  });
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
