import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import clojure from 'highlight.js/lib/languages/clojure';
import cmake from 'highlight.js/lib/languages/cmake';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dart from 'highlight.js/lib/languages/dart';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import elixir from 'highlight.js/lib/languages/elixir';
import erlang from 'highlight.js/lib/languages/erlang';
import fsharp from 'highlight.js/lib/languages/fsharp';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import groovy from 'highlight.js/lib/languages/groovy';
import haskell from 'highlight.js/lib/languages/haskell';
import http from 'highlight.js/lib/languages/http';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import julia from 'highlight.js/lib/languages/julia';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import less from 'highlight.js/lib/languages/less';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import matlab from 'highlight.js/lib/languages/matlab';
import nginx from 'highlight.js/lib/languages/nginx';
import nix from 'highlight.js/lib/languages/nix';
import objectivec from 'highlight.js/lib/languages/objectivec';
import ocaml from 'highlight.js/lib/languages/ocaml';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import protobuf from 'highlight.js/lib/languages/protobuf';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import wasm from 'highlight.js/lib/languages/wasm';
import x86asm from 'highlight.js/lib/languages/x86asm';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * The languages a fenced block may name, each with highlight.js's usual aliases (ts, js, sh, yml,
 * html, …). A chosen list rather than all 190: each one costs start-up time and memory, and these
 * are what a developer community writes. `plaintext` is left out on purpose: text is a plain block.
 */
const LANGUAGES = {
  bash,
  c,
  clojure,
  cmake,
  cpp,
  csharp,
  css,
  dart,
  diff,
  dockerfile,
  elixir,
  erlang,
  fsharp,
  go,
  graphql,
  groovy,
  haskell,
  http,
  ini,
  java,
  javascript,
  json,
  julia,
  kotlin,
  latex,
  less,
  lua,
  makefile,
  markdown,
  matlab,
  nginx,
  nix,
  objectivec,
  ocaml,
  perl,
  php,
  powershell,
  protobuf,
  python,
  r,
  ruby,
  rust,
  scala,
  scss,
  shell,
  sql,
  swift,
  typescript,
  wasm,
  x86asm,
  xml,
  yaml,
};

const highlighter = hljs.newInstance();
for (const [name, language] of Object.entries(LANGUAGES)) highlighter.registerLanguage(name, language);
// Names people type that highlight.js does not know by itself.
highlighter.registerAliases(['toml'], { languageName: 'ini' });
highlighter.registerAliases(['golang'], { languageName: 'go' });

export const HIGHLIGHT_LANGUAGES: readonly string[] = Object.keys(LANGUAGES);

/** A block over this many bytes is shown plain: highlighting it would cost more than it helps. */
export const HIGHLIGHT_MAX_BYTES = 30 * 1024;

/** The language's own name for what a fence's info string names (`ts` → `typescript`), or undefined. */
export function knownLanguage(name: string): string | undefined {
  if (!name) return undefined;
  const language = highlighter.getLanguage(name);
  if (!language) return undefined;
  // getLanguage answers an alias with the language itself; its registered name is the class.
  return HIGHLIGHT_LANGUAGES.find((key) => highlighter.getLanguage(key) === language);
}

/**
 * The code as escaped HTML whose tokens are `<span class="hljs-…">` (colours come from the theme's
 * CSS, never inline styles), or undefined when it is not highlighted (unknown language, too big).
 */
export function highlightCode(code: string, language: string): string | undefined {
  if (Buffer.byteLength(code, 'utf8') > HIGHLIGHT_MAX_BYTES) return undefined;
  try {
    return highlighter.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    // A grammar that throws on odd input is shown plain rather than failing the whole text.
    return undefined;
  }
}
