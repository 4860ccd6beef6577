import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * User text reaches the page only as text: React escapes whatever it renders, so the one way to
 * turn a post's title into markup is to hand a string to the DOM as HTML or code. None of the web
 * app's source does (the Content-Security-Policy would stop an injected script, not injected
 * markup or a form). A sink added later fails here and has to be argued for.
 *
 * Argued for so far: components/rendered-markdown.tsx puts the server's rendered Markdown into the
 * page (decision 025: markdown-it escapes every tag the author typed and allows only http(s),
 * mailto and this site's URLs; backend/src/markdown/markdown-renderer.spec.ts proves it on an
 * XSS corpus). It is the only file allowed the one sink it needs, dangerouslySetInnerHTML.
 */
const SOURCE = join(__dirname, '..', '..', 'frontend', 'src');
const SINKS: [string, RegExp][] = [
  ['dangerouslySetInnerHTML', /dangerouslySetInnerHTML/],
  ['innerHTML / outerHTML', /\.(inner|outer)HTML\b/],
  ['insertAdjacentHTML', /insertAdjacentHTML/],
  ['document.write', /document\.write(ln)?\s*\(/],
  ['createContextualFragment', /createContextualFragment/],
  ['eval', /(^|[^.\w])eval\s*\(/],
  ['new Function', /new\s+Function\s*\(/],
  ['a string to setTimeout/setInterval', /set(Timeout|Interval)\s*\(\s*['"`]/],
];

const ALLOWED: Record<string, string[]> = {
  'components/rendered-markdown.tsx': ['dangerouslySetInnerHTML'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

describe('the web app’s source', () => {
  it('never hands a string to the DOM as HTML or as code', () => {
    const files = sourceFiles(SOURCE);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          SINKS.filter(([name, pattern]) => pattern.test(line) && !ALLOWED[relative(SOURCE, file)]?.includes(name)).map(
            ([name]) => `${relative(SOURCE, file)}:${index + 1} uses ${name}`,
          ),
        ),
    );
    expect(found).toEqual([]);
  });
});
