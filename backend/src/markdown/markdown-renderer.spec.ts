import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { MARKDOWN_KINDS, type MarkdownKind } from '@techit/contract/enums';
import { HIGHLIGHT_LANGUAGES, HIGHLIGHT_MAX_BYTES } from './code-highlighter';
import { EXTERNAL_LINK_REL, render, type RenderContext } from './markdown-renderer';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const OWN_IMAGE = '/uploads/0123456789abcdef01234567-640x480.webp';
const USERS = new Map([['alice', 'a11ce0000000000000000001']]);

function context(lookups: string[][] = []): RenderContext {
  return {
    resolveMentions: (names) => {
      lookups.push([...names]);
      return Promise.resolve(new Map([...USERS].filter(([name]) => names.includes(name))));
    },
    isOwnImage: (url) => url === OWN_IMAGE,
  };
}

const md = (source: string, kind: MarkdownKind = 'post') => render(source, kind, context());

function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Node) => {
    if ('tagName' in node) found.push(node);
    if ('childNodes' in node) node.childNodes.forEach(walk);
    if ('content' in node && node.content) walk(node.content);
  };
  walk(parseFragment(html));
  return found;
}

function visibleText(html: string): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeName === '#text' && 'value' in node) parts.push(node.value);
    if ('childNodes' in node) node.childNodes.forEach(walk);
  };
  walk(parseFragment(html));
  // A <br> is followed by the source's newline, so the text keeps its lines without counting <br>.
  return parts.join('').trimEnd();
}

const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'form',
  'style',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'frame',
  'frameset',
  'applet',
  'template',
  'textarea',
  'button',
  'select',
  'video',
  'audio',
  'source',
  'noscript',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'xlink:href',
  'poster',
  'background',
  'cite',
  'data',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'href',
  'src',
  'alt',
  'title',
  'id',
  'class',
  'rel',
  'type',
  'disabled',
  'checked',
  'loading',
  'start',
  // Only the task checkbox's fixed name (checked below): no source text reaches it.
  'aria-label',
]);

/** What the issue asks of every output, checked on the parsed HTML rather than on strings. */
function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  for (const element of elements(html)) {
    if (FORBIDDEN_ELEMENTS.has(element.tagName)) problems.push(`<${element.tagName}>`);
    if (String(element.namespaceURI) !== 'http://www.w3.org/1999/xhtml') problems.push(`foreign ${element.tagName}`);
    for (const { name, value } of element.attrs) {
      if (/^on/i.test(name)) problems.push(`${element.tagName}[${name}]`);
      if (name === 'style') problems.push(`${element.tagName}[style]`);
      if (!ALLOWED_ATTRIBUTES.has(name)) problems.push(`${element.tagName}[${name}] not allowed`);
      if (
        element.tagName === 'input' &&
        (name !== 'type' || value !== 'checkbox') &&
        (name !== 'aria-label' || value !== 'Task') &&
        !['class', 'disabled', 'checked'].includes(name)
      )
        problems.push(`input[${name}=${value}]`);
      if (name === 'aria-label' && element.tagName !== 'input') problems.push(`${element.tagName}[aria-label]`);
      if (URL_ATTRIBUTES.has(name)) {
        // As a browser reads it: blanks and control characters inside a scheme are dropped.
        // eslint-disable-next-line no-control-regex
        const squeezed = value.replace(/[\u0000-\u0020]/g, '');
        const scheme = /^([^/?#]*):/.exec(squeezed)?.[1];
        if (scheme !== undefined && !/^(https?|mailto)$/i.test(scheme)) problems.push(`${name}=${value}`);
      }
    }
  }
  return problems;
}

/** OWASP's XSS filter evasion cheat sheet and the issue's list, as Markdown and as raw HTML in it. */
const XSS_CORPUS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.rocks/xss.js></SCRIPT>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
  '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">',
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.rocks/xss.js?< B >',
  '<IMG SRC="`<javascript:alert>`(\'XSS\')"',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
  "<svg/onload=alert('XSS')>",
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math href="javascript:alert(1)">CLICKME</math>',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<BASE HREF="javascript:alert(\'XSS\');//">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')">',
  "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->",
  '<details open ontoggle=alert(1)>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](  javascript:alert(1)  )',
  '[x](<javascript:alert(1)>)',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;avascript:alert(1))',
  '[x](&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](java&Tab;script:alert(1))',
  '[x](<java\tscript:alert(1)>)',
  '[x](java\\tscript:alert(1))',
  '[x](jav&#x09;ascript:alert(1))',
  '[x](%6Aavascript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](DATA:text/html,<script>alert(1)</script>)',
  '[x](vbscript:msgbox(1))',
  '[x](VBScript:msgbox(1))',
  '[x](file:///etc/passwd)',
  '[x](//evil.example/x "title" onclick="alert(1)")',
  '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
  '[x](https://ok.example/"onmouseover="alert(1))',
  '![x](javascript:alert(1))',
  '![x"onerror="alert(1)](https://evil.example/x.png)',
  '![x](data:image/svg+xml,<svg/onload=alert(1)>)',
  '[![x](javascript:alert(1))](javascript:alert(2))',
  '[[x](javascript:alert(1))](https://ok.example)',
  '[a[b[c](javascript:alert(1))]](javascript:alert(2))',
  '[x]: javascript:alert(1)\n\n[y][x]',
  '[x]: &#106;avascript:alert(1)\n\n[x]',
  '<javascript:alert(1)>',
  '<JAVASCRIPT:alert(1)>',
  '<vbscript:msgbox(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  'javascript:alert(1) and data:text/html,x',
  '```"><script>alert(1)</script>\ncode\n```',
  '```js onload=alert(1)\nx\n```',
  '`<script>alert(1)</script>`',
  '# <img src=x onerror=alert(1)>',
  '| <script>alert(1)</script> | b |\n|---|---|\n| [x](javascript:alert(1)) | <svg onload=alert(1)> |',
  '- [ ] <img src=x onerror=alert(1)>',
  '@<script>alert(1)</script> @alice<img src=x onerror=alert(1)>',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
  '<https://ok.example/" onclick="alert(1)>',
  'https://ok.example/"onclick="alert(1)',
  '[x](https://ok.example)<!-- <script>alert(1)</script> -->',
];

describe('markdown renderer safety (XSS corpus, output parsed)', () => {
  it.each(MARKDOWN_KINDS)(
    'no script, event handler, foreign element or bad URL scheme in any output (%s)',
    async (kind) => {
      for (const source of XSS_CORPUS) {
        const html = await md(source, kind);
        expect({ source, problems: unsafeParts(html) }).toEqual({ source, problems: [] });
      }
    },
  );

  it('the corpus all in one text is still safe', async () => {
    const html = await md(XSS_CORPUS.join('\n\n'));
    expect(unsafeParts(html)).toEqual([]);
    // Raw HTML shows as the text it is, escaped, not as elements.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('links keep http(s), mailto and this site’s paths; external ones get rel ugc nofollow', async () => {
    const html = await md(
      '[a](https://a.example/x) [b](http://b.example) [c](mailto:c@example.com) [d](/posts/1) [e](#part)',
    );
    const links = elements(html).filter((element) => element.tagName === 'a');
    const attrs = links.map((link) => Object.fromEntries(link.attrs.map(({ name, value }) => [name, value])));
    expect(attrs).toEqual([
      { href: 'https://a.example/x', rel: EXTERNAL_LINK_REL },
      { href: 'http://b.example', rel: EXTERNAL_LINK_REL },
      { href: 'mailto:c@example.com', rel: EXTERNAL_LINK_REL },
      { href: '/posts/1' },
      { href: '#part' },
    ]);
  });

  it('a refused link stays visible as text, not as a link', async () => {
    const html = await md('[click](JaVaScRiPt:alert(1))');
    expect(elements(html).map((element) => element.tagName)).toEqual(['p']);
    expect(visibleText(html)).toBe('[click](JaVaScRiPt:alert(1))');
  });
});

describe('markdown renderer: post (CommonMark + GFM)', () => {
  it('renders a GFM table with alignment as classes, not inline styles', async () => {
    const html = await md('| a | b |\n|:--|--:|\n| 1 | 2 |');
    expect(html).toContain('<th class="align-left">a</th>');
    expect(html).toContain('<td class="align-right">2</td>');
    expect(html).not.toContain('style=');
  });

  it('renders task lists, strikethrough and autolinks', async () => {
    const html = await md(
      '- [ ] todo\n- [x] done\n\n~~gone~~ <https://a.example> and https://b.example/x. and www.example.com',
    );
    expect(html).toContain(
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" aria-label="Task" disabled> todo</li>',
    );
    expect(html).toContain(
      '<input type="checkbox" class="task-list-item-checkbox" aria-label="Task" disabled checked> done',
    );
    expect(html).toContain('<s>gone</s>');
    expect(html).toContain(`<a href="https://a.example" rel="${EXTERNAL_LINK_REL}">https://a.example</a>`);
    expect(html).toContain(`<a href="https://b.example/x" rel="${EXTERNAL_LINK_REL}">https://b.example/x</a>.`);
    expect(html).toContain(`<a href="https://www.example.com" rel="${EXTERNAL_LINK_REL}">www.example.com</a>`);
  });

  it('a file name is not a link although its extension is a country domain', async () => {
    expect(await md('edit main.py and run.sh')).toBe('<p>edit main.py and run.sh</p>\n');
  });

  it('gives headings unique ids', async () => {
    const html = await md(
      '# Getting started\n## Install `npm`\n## Getting started\n### Getting started\n## ¿Qué tal?\n## !!!',
    );
    const headings = elements(html).filter((element) => /^h[1-6]$/.test(element.tagName));
    expect(headings.map((element) => element.attrs.find((attr) => attr.name === 'id')?.value)).toEqual([
      'getting-started',
      'install-npm',
      'getting-started-1',
      'getting-started-2',
      'qué-tal',
      'section',
    ]);
  });

  it('keeps images from this site’s storage and turns any other into a link', async () => {
    const html = await md(
      `![diagram](${OWN_IMAGE}) ![tracker](https://evil.example/pixel.png) ![](https://evil.example/a.png)`,
    );
    expect(html).toBe(
      `<p><img src="${OWN_IMAGE}" alt="diagram" loading="lazy"> ` +
        `<a href="https://evil.example/pixel.png" rel="${EXTERNAL_LINK_REL}">tracker</a> ` +
        `<a href="https://evil.example/a.png" rel="${EXTERNAL_LINK_REL}">https://evil.example/a.png</a></p>\n`,
    );
  });

  it('escapes raw HTML instead of passing it through', async () => {
    expect(await md('<b onclick="x()">bold</b>\n\n<div>\nblock\n</div>')).toBe(
      '<p>&lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;</p>\n<p>&lt;div&gt;\nblock\n&lt;/div&gt;</p>\n',
    );
  });
});

describe('markdown renderer: code highlighting', () => {
  const ISSUE_ALIASES = [
    'ts',
    'js',
    'sh',
    'bash',
    'shell',
    'yaml',
    'yml',
    'dockerfile',
    'sql',
    'rust',
    'go',
    'python',
    'java',
    'c',
    'cpp',
    'csharp',
    'kotlin',
    'swift',
    'ruby',
    'php',
    'html',
    'xml',
    'css',
    'scss',
    'json',
    'diff',
    'graphql',
  ];
  const SAMPLE = 'if (x) { return "a" + 1; } // note\n';
  // Languages whose grammar finds no token in SAMPLE get a line of their own.
  const SAMPLES: Record<string, string> = {
    shell: '$ ls -la\n',
    html: '<div class="a">x</div>\n',
    xml: '<a b="c"/>\n',
    diff: '@@ -1 +1 @@\n-old\n+new\n',
    http: 'GET /x HTTP/1.1\nHost: a.example\n',
    latex: '\\section{Intro}\n',
    markdown: '# Title\n',
  };

  it('knows at least 40 languages', () => {
    expect(HIGHLIGHT_LANGUAGES.length).toBeGreaterThanOrEqual(40);
  });

  it.each([...new Set([...ISSUE_ALIASES, ...HIGHLIGHT_LANGUAGES])])(
    '```%s gets highlight token classes',
    async (language) => {
      const html = await md(`\`\`\`${language}\n${SAMPLES[language] ?? SAMPLE}\`\`\``);
      expect(html).toMatch(/^<pre><code class="hljs language-[a-z0-9]+">/);
      expect(html).toMatch(/<span class="hljs-[a-z_]+/);
      expect(html).not.toContain('style=');
      expect(unsafeParts(html)).toEqual([]);
    },
  );

  it('an unknown or missing language is a plain escaped block, never an error', async () => {
    expect(await md('```nosuchlang\n<b>x</b>\n```')).toBe('<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n');
    expect(await md('```\n<b>x</b>\n```')).toBe('<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n');
    expect(await md('```text\nplain\n```', 'comment')).toBe('<pre><code>plain\n</code></pre>\n');
  });

  it(`a block over ${HIGHLIGHT_MAX_BYTES} bytes is not highlighted`, async () => {
    const line = 'const value = "<tag>";\n';
    const big = line.repeat(Math.ceil((HIGHLIGHT_MAX_BYTES + 1) / line.length));
    const html = await md(`\`\`\`ts\n${big}\`\`\``);
    expect(html.startsWith('<pre><code>const value = &quot;&lt;tag&gt;&quot;;\n')).toBe(true);
    expect(html).not.toContain('hljs');
    const justUnder = line.repeat(Math.floor(HIGHLIGHT_MAX_BYTES / line.length));
    expect(await md(`\`\`\`ts\n${justUnder}\`\`\``)).toContain('hljs-keyword');
  });
});

describe('markdown renderer: comment and notice (the small set)', () => {
  it.each(['comment', 'notice'] as const)('text written before Markdown reads the same (%s)', async (kind) => {
    const old =
      'Hi all,\nthe <b>build</b> fails: a < b && c > d\n  indented line\n---\nsee https://example.com/x?y=1 & 3 * 4 = 12';
    const html = await md(old, kind);
    expect(visibleText(html)).toBe(old.replace('\n  indented', '\nindented'));
    expect(elements(html).map((element) => element.tagName)).toEqual(['p', 'br', 'br', 'br', 'br', 'a']);
    expect(unsafeParts(html)).toEqual([]);
  });

  it('has no headings and no images: a heading line is text, an image a link', async () => {
    const html = await md(`# Not a heading\n![pic](${OWN_IMAGE})`, 'comment');
    expect(html).toBe(`<p># Not a heading<br>\n!<a href="${OWN_IMAGE}">pic</a></p>\n`);
  });

  it('keeps inline code, fenced code, links, emphasis, lists and quotes', async () => {
    const html = await md(
      '*em* **strong** `code` [l](https://a.example)\n\n- one\n- two\n\n> quoted\n\n```js\nlet a;\n```',
      'notice',
    );
    expect(elements(html).map((element) => element.tagName)).toEqual(
      expect.arrayContaining(['em', 'strong', 'code', 'a', 'ul', 'li', 'blockquote', 'pre']),
    );
    expect(html).toContain('<span class="hljs-keyword">let</span>');
  });
});

describe('markdown renderer: mentions', () => {
  it('links an existing user to their profile and leaves an unknown name as text, in one lookup', async () => {
    const lookups: string[][] = [];
    const html = await render(
      'hi @Alice and @nobody_here, mail bob@example.com, `@alice` [x @alice](https://a.example)',
      'comment',
      context(lookups),
    );
    expect(lookups).toEqual([['alice', 'nobody_here']]);
    expect(html).toContain('<a href="/profile/a11ce0000000000000000001" class="mention">@Alice</a>');
    expect(html).toContain(' @nobody_here,');
    expect(html).toContain('<code>@alice</code>');
    expect(elements(html).filter((element) => element.tagName === 'a')).toHaveLength(3);
  });

  it('asks nothing when the text names nobody', async () => {
    const lookups: string[][] = [];
    await render('no names here, a@b.example', 'post', context(lookups));
    expect(lookups).toEqual([]);
  });

  it('ends a name at a sentence’s full stop', async () => {
    expect(await md('thanks @alice.', 'comment')).toBe(
      '<p>thanks <a href="/profile/a11ce0000000000000000001" class="mention">@alice</a>.</p>\n',
    );
  });
});
