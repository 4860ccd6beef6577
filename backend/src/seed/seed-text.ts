import { LIMITS } from '@techit/contract/limits';
import type { Random } from './random';

/** Words of a technical community, so feeds and profiles read like the real thing in screenshots. */
export const WORDS = (
  'react node typescript rust python kotlin swift go sql postgres sqlite redis kafka docker kubernetes ' +
  'linux git vim emacs compiler runtime cache index query latency throughput benchmark profile memory ' +
  'thread async promise stream buffer socket protocol http tls dns router component hook state reducer ' +
  'render layout css grid flexbox animation accessibility testing mock fixture coverage deploy pipeline ' +
  'build bundle module package version release migration schema table join transaction lock deadlock ' +
  'replica shard queue worker cron logging metrics tracing error exception stack heap garbage collector ' +
  'pointer borrow lifetime trait generic closure iterator pattern refactor review design api rest ' +
  'graphql grpc webhook token session cookie password hash encryption key certificate browser mobile ' +
  'server client edge cloud serverless function container image volume network firewall algorithm graph ' +
  'tree array vector matrix model training dataset notebook gpu shader game engine physics audio video ' +
  'codec keyboard terminal shell script regex parser lexer interpreter wasm json yaml config feature ' +
  'flag bug fix issue question answer tip trick guide tutorial talk meetup job interview career'
).split(' ');

const FIRST_NAMES = (
  'ada alan grace linus margaret dennis ken barbara edsger donald frances guido james john katherine ' +
  'radia tim vint whitfield yukihiro bjarne anders brendan rob sophie hedy joan karen leslie mary ' +
  'niklaus ole richard shafi tony ward amara chen diego elif farah hiro ines jonas kofi lena mateo ' +
  'nadia omar priya quinn ravi sana tariq uma wei yara zoe'
).split(' ');

const LAST_NAMES = (
  'lovelace turing hopper torvalds hamilton ritchie thompson liskov dijkstra knuth allen rossum gosling ' +
  'mccarthy johnson perlman berners cerf diffie matsumoto stroustrup hejlsberg eich pike wilson lamarr ' +
  'clarke jones lamport keller wirth dahl stallman goldwasser hoare cunningham okafor li garcia yilmaz ' +
  'haddad sato silva berg mensah fischer rossi petrova aziz sharma kim patel khan nowak'
).split(' ');

const POSITIONS = [
  'Software Engineer',
  'Frontend Developer',
  'Backend Developer',
  'Full-stack Developer',
  'Student',
  'SRE',
  'Data Engineer',
  'ML Engineer',
  'Engineering Manager',
  'Security Researcher',
  'Mobile Developer',
  'DevOps',
  'Open-source Maintainer',
  'CS Teacher',
  'Game Developer',
  'Embedded Engineer',
] as const;

const LINK_HOSTS = (
  'https://developer.mozilla.org/en-US/docs/Web https://nodejs.org/api ' +
  'https://www.postgresql.org/docs/current https://sqlite.org/lang https://github.com/techit-community ' +
  'https://doc.rust-lang.org/book https://docs.python.org/3/library https://react.dev/reference/react ' +
  'https://example.com/articles https://en.wikipedia.org/wiki'
).split(' ');

export const TAGS = 'event hiring meetup release security outage webinar hackathon workshop announcement'.split(' ');

function words(random: Random, min: number, max: number): string[] {
  const count = random.int(min, max);
  const list: string[] = [];
  for (let i = 0; i < count; i += 1) list.push(random.pick(WORDS));
  return list;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Sentences of words, cut at a word boundary so they never pass the contract's limit. */
function sentences(random: Random, minWords: number, maxWords: number, limit: number): string {
  const parts: string[] = [];
  let remaining = random.int(minWords, maxWords);
  while (remaining > 0) {
    const length = Math.min(remaining, random.int(4, 12));
    parts.push(`${capitalize(words(random, length, length).join(' '))}${random.pick(['.', '.', '.', '?', '!'])}`);
    remaining -= length;
  }
  return clip(parts.join(' '), limit);
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf(' ', limit - 1);
  return text.slice(0, cut > 0 ? cut : limit);
}

export function postTitle(random: Random): string {
  return clip(capitalize(words(random, 2, 8).join(' ')), LIMITS.postTitleMax);
}

export function postDescription(random: Random): string {
  return sentences(random, 6, 60, LIMITS.postDescMax);
}

export function commentText(random: Random): string {
  return sentences(random, 2, 30, LIMITS.commentMax);
}

export function noticeText(random: Random): string {
  return sentences(random, 8, 80, LIMITS.noticeDescMax);
}

export function bio(random: Random): string {
  return sentences(random, 4, 20, LIMITS.bioMax);
}

export function position(random: Random): string {
  return random.pick(POSITIONS);
}

export function link(random: Random): string {
  return `${random.pick(LINK_HOSTS)}/${random.pick(WORDS)}-${random.pick(WORDS)}`;
}

/**
 * Unique by construction: the name part has no digits or "_", so the "_<index>" suffix alone tells
 * two accounts apart, in any letter case (the app compares userNames case-insensitively).
 */
export function userName(random: Random, index: number): string {
  const first = random.pick(FIRST_NAMES);
  const name = random.chance(0.5) ? `${first}.${random.pick(LAST_NAMES)}` : first;
  const cased = random.chance(0.3) ? capitalize(name) : name;
  return `${cased.slice(0, LIMITS.userNameMax - 1 - String(index).length)}_${index}`;
}
