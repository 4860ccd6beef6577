import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeExtendedJson } from './extended-json';
import { MongoImportError } from './mongo-import-error';

export const COLLECTIONS = ['users', 'posts', 'notices'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** One exported document, its Extended JSON decoded, and where it came from (for the report). */
export interface ExportDocument {
  fields: Record<string, unknown>;
  /** `users.json line 12`. */
  source: string;
}

export type MongoExport = Record<Collection, ExportDocument[]>;

/**
 * Reads `<folder>/users.json`, `posts.json` and `notices.json`, each written by
 * `mongoexport --collection=<name> --out=<name>.json` (with or without `--jsonArray` or
 * `--pretty`). Everything is read and checked before anything is written: a malformed document
 * anywhere stops the import with its file and line.
 */
export async function readMongoExport(folder: string): Promise<MongoExport> {
  const info = await stat(folder).catch(() => null);
  if (!info) throw new MongoImportError(`${folder}: no such folder`);
  if (!info.isDirectory()) throw new MongoImportError(`${folder} is not a folder: give the folder holding users.json`);
  const texts = await Promise.all(
    COLLECTIONS.map((collection) =>
      readFile(join(folder, `${collection}.json`), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw new MongoImportError(`${collection}.json: ${error.message}`);
      }),
    ),
  );
  const missing = COLLECTIONS.filter((_, index) => texts[index] === null).map((collection) => `${collection}.json`);
  if (missing.length > 0) {
    throw new MongoImportError(
      `${folder} has no ${missing.join(', ')}: export each collection with ` +
        '`mongoexport --collection=<name> --out=<name>.json` (an empty collection gives an empty file)',
    );
  }
  const documents = COLLECTIONS.map((collection, index) => parseExportFile(`${collection}.json`, texts[index] ?? ''));
  return { users: documents[0] ?? [], posts: documents[1] ?? [], notices: documents[2] ?? [] };
}

/** The documents of one file, in any of mongoexport's three layouts. */
export function parseExportFile(file: string, text: string): ExportDocument[] {
  return splitDocuments(file, text).map(({ json, line }) => {
    const source = `${file} line ${line}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new MongoImportError(
        `${source}: not valid JSON (${error instanceof Error ? error.message : 'unreadable'})`,
      );
    }
    const fields = decodeExtendedJson(parsed);
    // A lone {"$oid": …} or {"$date": …} decodes to a value, not a document.
    if (fields === null || typeof fields !== 'object' || fields instanceof Date) {
      throw new MongoImportError(`${source}: not a document (a bare ${typeof fields} value)`);
    }
    return { fields: fields as Record<string, unknown>, source };
  });
}

/**
 * Finds each top-level `{…}` (tracking strings and nesting) rather than splitting at newlines,
 * so one document per line (the default), one `[…]` array (`--jsonArray`) and documents spread
 * over several lines (`--pretty`) all read the same way. A document keeps the line it starts on.
 */
function splitDocuments(file: string, text: string): { json: string; line: number }[] {
  const documents: { json: string; line: number }[] = [];
  // 0: before any document; 1: inside a top-level array; 2: after that array closed.
  let arrayState: 0 | 1 | 2 = 0;
  let line = 1;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (at: number, message: string): never => {
    throw new MongoImportError(`${file} line ${at}: ${message}`);
  };
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '\n') line += 1;
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') {
      index += 1;
      continue;
    }
    if (arrayState === 2) fail(line, `unexpected ${describe(char)} after the closing "]"`);
    if (char === '[' && arrayState === 0 && documents.length === 0) {
      arrayState = 1;
      index += 1;
      continue;
    }
    if (arrayState === 1 && char === ']') {
      arrayState = 2;
      index += 1;
      continue;
    }
    if (arrayState === 1 && char === ',' && documents.length > 0) {
      index += 1;
      continue;
    }
    if (char !== '{') fail(line, `expected a document ("{"), found ${describe(char)}`);
    const start = index;
    const startLine = line;
    const end = closingBrace(text, index, (newlines) => (line += newlines));
    if (end === -1) fail(startLine, 'the document starting here never ends (a line cut short?)');
    documents.push({ json: text.slice(start, end + 1), line: startLine });
    index = end + 1;
  }
  if (arrayState === 1) fail(line, 'the "[" of --jsonArray is never closed');
  return documents;
}

/** The index of the `}` that closes the `{` at `start`, or -1; reports the newlines it passed. */
function closingBrace(text: string, start: number, passed: (newlines: number) => void): number {
  let depth = 0;
  let inString = false;
  let newlines = 0;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') newlines += 1;
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) {
        passed(newlines);
        return index;
      }
    }
  }
  return -1;
}

function describe(char: string): string {
  return /[\x21-\x7e]/.test(char)
    ? `"${char}"`
    : `character U+${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}
