import { LIMITS } from '@techit/contract/limits';
import { TAG_PATTERN } from '@techit/contract/tag-rules';
import type { Random } from './random';
import { WORDS } from './seed-text';

/**
 * The tags the seed gives posts, most popular first: a hand-written head like a developer
 * community's front page, then every topic word of the seed's text, then compound names
 * ("react-hooks", "rust-performance") made from the head and a few common qualifiers. A few
 * hundred names whose use falls off with rank, so autocomplete sees long and short prefix lists
 * and a popular tag's feed holds tens of thousands of posts at 100k.
 */
const HEAD = (
  'javascript webdev programming beginners react python tutorial typescript node devops ' +
  'rust go career opensource productivity css ai machine-learning database security testing ' +
  'docker kubernetes aws linux postgres sql java kotlin swift android ios frontend backend ' +
  'architecture performance discuss showdev news help git vue angular svelte nextjs graphql ' +
  'api cloud serverless microservices design-patterns algorithms datastructures interview ' +
  'web3 blockchain data-science deep-learning llm gamedev embedded cpp csharp dotnet php ' +
  'ruby rails elixir haskell clojure scala zig wasm html accessibility ux mobile'
).split(' ');

const QUALIFIERS = ['tips', 'performance', 'testing', 'security', 'tutorial', 'internals', 'patterns', 'tooling'];
/** How many of the head get compound names: the most popular topics are the ones people qualify. */
const COMPOUND_BASES = 24;

function vocabulary(): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (!seen.has(name) && TAG_PATTERN.test(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  HEAD.forEach(add);
  WORDS.forEach(add);
  for (const qualifier of QUALIFIERS) {
    for (const base of HEAD.slice(0, COMPOUND_BASES)) add(`${base}-${qualifier}`);
  }
  return names;
}

export const SEED_TAGS: readonly string[] = vocabulary();

/** Zipf's exponent: the rank-r tag is used about 1 / r^s as often as the first. */
const ZIPF_EXPONENT = 1;
/** Tags per post: 0 … LIMITS.postTagsMax (4), a post with two the most common. */
const TAG_COUNT_WEIGHTS = [0.15, 0.25, 0.3, 0.2, 0.1];

/** Draws tag ranks by Zipf's law (inverse transform over the cumulative weights). */
export class TagSampler {
  private readonly cumulative: Float64Array;

  constructor(private readonly random: Random) {
    this.cumulative = new Float64Array(SEED_TAGS.length);
    let sum = 0;
    for (let rank = 0; rank < SEED_TAGS.length; rank += 1) {
      sum += 1 / Math.pow(rank + 1, ZIPF_EXPONENT);
      this.cumulative[rank] = sum;
    }
  }

  /** One rank, 0 being the most popular. */
  rank(): number {
    const target = this.random.next() * this.cumulative[this.cumulative.length - 1];
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cumulative[middle] <= target) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** `count` distinct ranks in the order drawn (a post's tag order is the author's). */
  distinct(count: number): number[] {
    const ranks: number[] = [];
    while (ranks.length < Math.min(count, SEED_TAGS.length)) {
      const rank = this.rank();
      if (!ranks.includes(rank)) ranks.push(rank);
    }
    return ranks;
  }

  /** How many tags one post gets. */
  postTagCount(): number {
    let draw = this.random.next();
    for (let count = 0; count < TAG_COUNT_WEIGHTS.length - 1; count += 1) {
      draw -= TAG_COUNT_WEIGHTS[count];
      if (draw < 0) return Math.min(count, LIMITS.postTagsMax);
    }
    return Math.min(TAG_COUNT_WEIGHTS.length - 1, LIMITS.postTagsMax);
  }
}
