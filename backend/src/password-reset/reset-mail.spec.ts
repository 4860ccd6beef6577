import { resetMail } from './reset-mail';

describe('resetMail', () => {
  it('carries the link in a plain-text part and an HTML part, every value escaped in the HTML', () => {
    const link = 'https://techit.example/reset-password?token=abc&x="><script>alert(1)</script>';
    const mail = resetMail('ada@example.com', 'ada<b>', link);
    expect(mail).toMatchObject({ to: 'ada@example.com', subject: 'Reset your TechIt password' });
    expect(mail.text).toContain(`Hello ada<b>,`);
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain('within 1 hour');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('ada<b>');
    expect(mail.html).toContain('Hello ada&lt;b&gt;,');
    const escaped =
      'https://techit.example/reset-password?token=abc&amp;x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;';
    expect(mail.html).toContain(`<a href="${escaped}">`);
  });
});
