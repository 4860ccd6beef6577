/**
 * The renderer's speed (issue 16: a 10 KB post with 5 code blocks in ≤ 5 ms p99): renders the
 * sample many times in this process and prints p50/p99. `npm run bench:markdown [-- --runs 2000]`.
 * The first runs warm the JIT and are not counted, as a server that has run a while is warm.
 */
import { performance } from 'node:perf_hooks';
import { render, type RenderContext } from '@techit/backend/markdown/markdown-renderer';

const CODE_BLOCKS = [
  [
    'ts',
    'export async function load(id: string): Promise<Post | undefined> {\n  const row = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();\n  return row ? toPost(row) : undefined;\n}\n',
  ],
  [
    'python',
    'def fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint([fib(i) for i in range(10)])\n',
  ],
  [
    'sql',
    "SELECT p.id, count(l.user_id) AS likes\nFROM posts p LEFT JOIN likes l ON l.post_id = p.id\nWHERE p.created_at > now() - interval '7 days'\nGROUP BY p.id ORDER BY likes DESC LIMIT 5;\n",
  ],
  [
    'yaml',
    'services:\n  api:\n    image: techit:latest\n    ports: ["8080:8080"]\n    environment:\n      DATABASE_URL: postgres://db/techit\n',
  ],
  [
    'rust',
    'fn main() {\n    let words: Vec<&str> = "a b c".split(\' \').collect();\n    for (i, w) in words.iter().enumerate() {\n        println!("{i}: {w}");\n    }\n}\n',
  ],
] as const;

const PARAGRAPH =
  'Rendering happens once, when a post is saved; readers get the stored HTML. This paragraph has **bold**, *emphasis*, `inline code`, a [link](https://example.com/docs) and a mention of @someone, so every inline rule runs.\n\n';

/** About 10 KB of Markdown: headings, paragraphs, a list, a table and 5 fenced code blocks. */
export function samplePost(): string {
  let text = '# A post about code\n\n';
  let block = 0;
  while (text.length < 10 * 1024) {
    text += `## Part ${block + 1}\n\n${PARAGRAPH}- one\n- two with https://example.org/x\n- [ ] a task\n\n`;
    if (block < CODE_BLOCKS.length) {
      const [language, code] = CODE_BLOCKS[block];
      text += `\`\`\`${language}\n${code}\`\`\`\n\n`;
      block += 1;
    } else {
      text += PARAGRAPH.repeat(3) + '| a | b |\n|---|--:|\n| 1 | 2 |\n\n';
    }
  }
  return text;
}

const context: RenderContext = {
  // The lookup is the caller's one query; its cost is the database's, not the renderer's.
  resolveMentions: () => Promise.resolve(new Map()),
  isOwnImage: () => false,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 1000;
  const source = samplePost();
  const blocks = source.match(/^```[a-z]+$/gm)?.length ?? 0;
  for (let index = 0; index < 100; index += 1) await render(source, 'post', context);
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await render(source, 'post', context);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `markdown render: ${(Buffer.byteLength(source) / 1024).toFixed(1)} KB post, ${blocks} code blocks, ${runs} runs: ` +
      `p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, max ${ms(times[times.length - 1])}`,
  );
}

void main();
