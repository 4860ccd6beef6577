import { DEFAULT_PROFILE_PIC, LIMITS } from '@techit/contract/limits';
import { isHttpUrl, linkHost, withLinkScheme } from '@techit/contract/url-rules';
import { isPictureUrl } from './url-rules';

// The rule lives in contract/ (the server validates with it, the web app renders links by it);
// contract has no test runner of its own, so its cases are here.
describe('isHttpUrl (contract/src/url-rules.ts)', () => {
  it.each([
    'http://example.com',
    'https://example.com/a/b?c=d#e',
    'HTTPS://EXAMPLE.COM',
    'https://localhost:8080/',
    // The URL parser reads these as http://example.com/: still an http(s) address.
    'http:example.com',
  ])('accepts %s', (value) => {
    expect(isHttpUrl(value)).toBe(true);
  });

  it.each([
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a file: URL', 'file:///etc/passwd'],
    ['a mailto: URL', 'mailto:someone@example.com'],
    ['text that is no URL', 'example.com'],
    ['an empty string', ''],
    ['a scheme without a host', 'https://'],
    ['a space inside', 'https://example.com/a b'],
    ['a leading space', ' https://example.com'],
    ['a line break', 'https://example.com/\n'],
    ['a link over the limit', `https://example.com/${'a'.repeat(LIMITS.linkMax)}`],
  ])('refuses %s', (_what, value) => {
    expect(isHttpUrl(value)).toBe(false);
  });

  it('accepts a link of exactly the limit', () => {
    const base = 'https://example.com/';
    expect(isHttpUrl(base + 'a'.repeat(LIMITS.linkMax - base.length))).toBe(true);
  });

  it.each([undefined, null, 42, {}, ['https://example.com']])('refuses the non-string %p', (value) => {
    expect(isHttpUrl(value)).toBe(false);
  });
});

describe('isPictureUrl', () => {
  it('accepts the default picture, this server’s uploads and any http(s) address', () => {
    expect(isPictureUrl(DEFAULT_PROFILE_PIC)).toBe(true);
    expect(isPictureUrl('/uploads/0123456789abcdef01234567-640x480.webp')).toBe(true);
    expect(isPictureUrl('https://example.com/me.png')).toBe(true);
  });

  it('refuses other local paths and other schemes', () => {
    expect(isPictureUrl('/uploads/../secret.webp')).toBe(false);
    expect(isPictureUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('withLinkScheme', () => {
  it.each([
    ['example.com/x', 'https://example.com/x'],
    ['//example.com/x', 'https://example.com/x'],
    ['localhost:3000/x', 'https://localhost:3000/x'],
    ['example.com:8080', 'https://example.com:8080'],
    ['http://example.com', 'http://example.com'],
    ['HTTPS://example.com', 'HTTPS://example.com'],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['data:text/html,x', 'data:text/html,x'],
    ['vbscript:msgbox(1)', 'vbscript:msgbox(1)'],
  ])('turns %p into %p', (typed, stored) => {
    expect(withLinkScheme(typed)).toBe(stored);
  });

  it('never turns a script or data link into an http(s) one', () => {
    for (const typed of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:,x', 'vbscript:x', 'file:///etc/passwd']) {
      expect(isHttpUrl(withLinkScheme(typed))).toBe(false);
    }
  });
});

describe('linkHost (contract/src/url-rules.ts)', () => {
  it.each([
    ['https://github.com/ada/engine', 'github.com'],
    ['https://www.example.com/page', 'example.com'],
    ['https://WWW.Example.COM', 'example.com'],
    ['http://docs.example.org:8080/x?y#z', 'docs.example.org'],
    ['https://wwwx.example.com', 'wwwx.example.com'],
  ])('names %s by %s', (url, host) => {
    expect(linkHost(url)).toBe(host);
  });

  it.each(['javascript:alert(1)', 'example.com', ''])('names nothing for %p, which is no http(s) link', (value) => {
    expect(linkHost(value)).toBe('');
  });
});
