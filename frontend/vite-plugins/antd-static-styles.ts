import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Ant Design without its run-time CSS-in-JS: the built app's theme runs with `zeroRuntime` (see
 * features/theme/theme-provider.tsx), so components no longer build and insert their style sheets
 * while the page renders — on a phone that was about half the script time of the first page. Their
 * styles come instead from the library's own pre-built `antd/dist/antd.css`, cut per component:
 * each component's style module imports the rules of its own class names, so a component's CSS
 * travels in the same chunk as its code and a page downloads only the styles it can show. Colours
 * and sizes stay CSS variables that the theme still sets at run time (light and dark).
 *
 * The rules sit in `@layer antd`, under the app's own style sheets whatever order chunks load in,
 * as the run-time styles were (inserted first in <head>).
 */

const require = createRequire(import.meta.url);
const ANTD_ES = join(dirname(require.resolve('antd/package.json')), 'es');
const ANTD_CSS = join(dirname(require.resolve('antd/package.json')), 'dist', 'antd.css');
const VIRTUAL_PREFIX = 'techit-antd-style:';
/** Resolved ids: under the package, so its `sideEffects: ['*.css']` keeps the imports. */
const RESOLVED_DIR = join(ANTD_ES, '..', 'techit-static-styles');

/** Component folders whose class names are not `ant-<folder>`. */
const CLASS_PREFIXES: Record<string, string[]> = {
  button: ['btn'],
  grid: ['row', 'col'],
  input: ['input', 'otp'],
  'date-picker': ['picker'],
  'float-button': ['float-btn'],
  'qr-code': ['qrcode'],
  'tree-select': ['tree-select', 'select-tree'],
  calendar: ['picker-calendar'],
  badge: ['badge', 'ribbon'],
};
/** Shared by many components (motion, the click wave, links, icons): the base sheet. */
const BASE_PREFIXES = ['zoom', 'slide', 'move', 'fade', 'motion', 'wave'];
const BASE = 'base';

interface Rule {
  /** The top-level text, `selector{…}` or `@media …{…}` with only this component's rules inside. */
  text: string;
}

/** Splits CSS into its top-level blocks (quotes respected). */
function blocks(css: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let index = 0; index < css.length; index += 1) {
    const char = css[index];
    if (quote) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) {
        out.push(css.slice(start, index + 1).trim());
        start = index + 1;
      }
    }
  }
  return out;
}

/** Which component a plain rule belongs to: the longest class prefix its first selector starts with. */
function ownerOf(selector: string, prefixes: [string, string][]): string | null {
  const first = /\.ant-([a-z][a-z0-9-]*)/.exec(selector)?.[1];
  if (!first) return /^(a\b|\.anticon)/.test(selector) ? BASE : null;
  for (const [prefix, component] of prefixes) {
    if (first === prefix || first.startsWith(`${prefix}-`)) return component;
  }
  return null;
}

/** Cuts antd.css into one style sheet per component folder, plus the base. */
export function splitAntdCss(css: string, folders: string[]): Map<string, string> {
  const prefixes: [string, string][] = [
    ...folders.flatMap((folder) =>
      (CLASS_PREFIXES[folder] ?? [folder]).map((prefix): [string, string] => [prefix, folder]),
    ),
    ...BASE_PREFIXES.map((prefix): [string, string] => [prefix, BASE]),
  ].sort((a, b) => b[0].length - a[0].length);
  const rules = new Map<string, Rule[]>();
  const keyframes = new Map<string, string>();
  const add = (component: string, text: string): void => {
    const list = rules.get(component) ?? [];
    if (!list.some((rule) => rule.text === text)) list.push({ text });
    rules.set(component, list);
  };

  for (const block of blocks(css)) {
    const head = block.slice(0, block.indexOf('{'));
    if (head.startsWith('@keyframes')) {
      keyframes.set(head.slice('@keyframes'.length).trim(), block);
    } else if (head.startsWith('@')) {
      // @media, @supports, @container: the same cut inside, wrapped again per component.
      const inner = block.slice(block.indexOf('{') + 1, -1);
      const byComponent = new Map<string, string[]>();
      for (const rule of blocks(inner)) {
        const owner = ownerOf(rule.slice(0, rule.indexOf('{')), prefixes);
        if (owner) byComponent.set(owner, [...(byComponent.get(owner) ?? []), rule]);
      }
      for (const [owner, inside] of byComponent) add(owner, `${head}{${inside.join('')}}`);
    } else {
      // Token variables (.css-var-…) are set by the theme at run time; the cache marker is SSR's.
      const owner = ownerOf(head, prefixes);
      if (owner) add(owner, block);
    }
  }

  const sheets = new Map<string, string>();
  for (const [component, list] of rules) {
    let body = list.map((rule) => rule.text).join('\n');
    for (const [name, frames] of keyframes) {
      if (new RegExp(`(^|[^\\w-])${name.replace(/[-]/g, '\\-')}([^\\w-]|$)`).test(body)) body += `\n${frames}`;
    }
    sheets.set(component, `@layer antd{\n${body}\n}\n`);
  }
  return sheets;
}

/** Which component folder a module is the style entry of, or null. */
function styleFolder(id: string): string | null {
  const path = id.split('?')[0].replace(/\\/g, '/');
  if (path.endsWith('/antd/es/_util/wave/style.js') || path.endsWith('/antd/es/config-provider/index.js')) return BASE;
  return /\/antd\/es\/([a-z-]+)\/style\/index\.js$/.exec(path)?.[1] ?? null;
}

export function antdStaticStyles(): Plugin {
  let sheets: Map<string, string> | null = null;
  const unstyled = new Map<string, string>();
  const load = (): Map<string, string> => {
    if (!sheets) {
      const folders = readdirSync(ANTD_ES, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(ANTD_ES, entry.name, 'style', 'index.js')))
        .map((entry) => entry.name);
      sheets = splitAntdCss(readFileSync(ANTD_CSS, 'utf8'), folders);
    }
    return sheets;
  };
  return {
    name: 'techit-antd-static-styles',
    // The dev server pre-bundles antd past this plugin; it keeps run-time styles instead.
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      if (source.startsWith(VIRTUAL_PREFIX)) return join(RESOLVED_DIR, source.slice(VIRTUAL_PREFIX.length));
      return null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_DIR)) return null;
      const component = id.slice(RESOLVED_DIR.length + 1).replace(/\.css$/, '');
      const sheet = load().get(component);
      if (sheet === undefined) this.error(`No rules in antd.css for the ${component} component`);
      return sheet;
    },
    transform(code, id) {
      const folder = styleFolder(id);
      if (!folder) return null;
      if (!load().has(folder)) {
        // Parsed because the package's index names every component; checked below if kept.
        if (code.includes('genStyleHooks')) unstyled.set(id, folder);
        return null;
      }
      // On the first line, so the module's own source map still lines up.
      return { code: `import '${VIRTUAL_PREFIX}${folder}.css';${code}`, map: null };
    },
    generateBundle(_options, bundle) {
      // A component whose rules the cut did not find would render unstyled: fail the build.
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        for (const id of file.moduleIds) {
          const folder = unstyled.get(id);
          if (folder) this.error(`antd.css has no rules for ${folder}: add its class prefix to CLASS_PREFIXES`);
        }
      }
    },
  };
}
