import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The web budget: what a browser must download for `/` before it can paint the feed (the
 * entry chunk, everything it imports statically, the home page's chunk and its static imports,
 * with their CSS, and the scripts and styles index.html names) is at most 250 KB gzip. Chunks
 * loaded by a dynamic import (other pages, menus, dialogs, toasts) are not part of it.
 */
const BUDGET_BYTES = 250 * 1024;
// E2E_WEB_DIST_DIR: a build made elsewhere (vite build --outDir …), as the journeys accept.
const DIST = process.env.E2E_WEB_DIST_DIR
  ? resolve(process.env.E2E_WEB_DIST_DIR)
  : join(__dirname, '..', '..', 'frontend', 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');
/** The module of the `/` route, as router.tsx lazily imports it (a manifest key: the source path). */
const HOME_ROUTE_MODULE = 'src/app/routes/home.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function readManifest(): Manifest {
  if (!existsSync(MANIFEST)) {
    throw new Error(`${MANIFEST} is missing: build the web app (npm run build -w frontend) with build.manifest on`);
  }
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
}

/** A chunk's file, its CSS, and the same for every chunk it imports statically (not dynamically). */
function staticClosure(manifest: Manifest, key: string, files: Set<string>, seen = new Set<string>()): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, files, seen);
}

/** Same-origin scripts, module preloads and style sheets that the built index.html names. */
function filesNamedByIndexHtml(): string[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const files: string[] = [];
  for (const tag of tags) {
    const isScript = tag.startsWith('<script');
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1];
    if (!isScript && rel !== 'stylesheet' && rel !== 'modulepreload') continue;
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (url?.startsWith('/') && !url.startsWith('//')) files.push(url.slice(1));
  }
  return files;
}

function gzipSize(file: string): number {
  return gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('initial download of / (JS + CSS, gzip)', () => {
  it(`stays within ${kb(BUDGET_BYTES)}`, () => {
    const manifest = readManifest();
    const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
    expect(entries).toHaveLength(1);
    if (!manifest[HOME_ROUTE_MODULE]) {
      throw new Error(`The manifest has no chunk for ${HOME_ROUTE_MODULE}: did the home route move?`);
    }

    const files = new Set<string>();
    staticClosure(manifest, entries[0][0], files);
    const shellFiles = files.size;
    staticClosure(manifest, HOME_ROUTE_MODULE, files);
    for (const file of filesNamedByIndexHtml()) files.add(file);

    const sizes = [...files].map((file) => ({ file, gzip: gzipSize(file) })).sort((a, b) => b.gzip - a.gzip);
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const report = [
      ...sizes.map(({ file, gzip }) => `  ${kb(gzip).padStart(9)}  ${file}`),
      `  ${kb(total).padStart(9)}  total of ${sizes.length} files (budget ${kb(BUDGET_BYTES)})`,
    ].join('\n');
    console.log(`Initial download of / (gzip level 9):\n${report}`);

    // Sanity: the walk found the shell (React, the router, Ant Design) and the home page on top of it.
    expect(shellFiles).toBeGreaterThan(1);
    expect(files.size).toBeGreaterThan(shellFiles);
    expect(sizes.some(({ file }) => file.endsWith('.css'))).toBe(true);
    if (total > BUDGET_BYTES) {
      throw new Error(
        `The initial download of / is ${kb(total)} gzip, over the ${kb(BUDGET_BYTES)} budget:\n${report}`,
      );
    }
  });
});
