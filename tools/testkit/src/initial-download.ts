import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The web budget: what a browser must download for `/` before it can paint the feed (the
 * entry chunk, everything it imports statically, the home page's chunk and its static imports,
 * with their CSS, and the scripts and styles index.html names) is at most 250 KB gzip. Chunks
 * loaded by a dynamic import (other pages, menus, dialogs, toasts) are not part of it. One
 * measurement, read by the bundle-budget test (e2e) and printed by `npm run lighthouse`.
 */
export const INITIAL_DOWNLOAD_BUDGET_BYTES = 250 * 1024;
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

export interface InitialDownload {
  /** Every file, largest first, with its gzip size (level 9). */
  files: { file: string; gzip: number }[];
  totalBytes: number;
  /** How many files the entry chunk's own static graph has (a sanity check: the shell was found). */
  shellFiles: number;
  budgetBytes: number;
  /** The per-file table and the total, for a log. */
  report: string;
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function readManifest(dist: string): Manifest {
  const manifest = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifest)) {
    throw new Error(`${manifest} is missing: build the web app (npm run build -w frontend) with build.manifest on`);
  }
  return JSON.parse(readFileSync(manifest, 'utf8')) as Manifest;
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
function filesNamedByIndexHtml(dist: string): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
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

/** The initial JS + CSS of `/` in the web build at `dist` (its index.html and Vite manifest). */
export function measureInitialDownload(dist: string): InitialDownload {
  const manifest = readManifest(dist);
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
  if (entries.length !== 1) throw new Error(`The manifest has ${entries.length} entries for index.html, not 1`);
  if (!manifest[HOME_ROUTE_MODULE]) {
    throw new Error(`The manifest has no chunk for ${HOME_ROUTE_MODULE}: did the home route move?`);
  }
  const names = new Set<string>();
  staticClosure(manifest, entries[0][0], names);
  const shellFiles = names.size;
  staticClosure(manifest, HOME_ROUTE_MODULE, names);
  for (const file of filesNamedByIndexHtml(dist)) names.add(file);

  const files = [...names]
    .map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }))
    .sort((a, b) => b.gzip - a.gzip);
  const totalBytes = files.reduce((sum, { gzip }) => sum + gzip, 0);
  const report = [
    ...files.map(({ file, gzip }) => `  ${kb(gzip).padStart(9)}  ${file}`),
    `  ${kb(totalBytes).padStart(9)}  total of ${files.length} files (budget ${kb(INITIAL_DOWNLOAD_BUDGET_BYTES)})`,
  ].join('\n');
  return { files, totalBytes, shellFiles, budgetBytes: INITIAL_DOWNLOAD_BUDGET_BYTES, report };
}
