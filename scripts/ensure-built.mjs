// Builds whatever is missing or older than its sources, so `npm start` works on a fresh clone
// and after a `git pull` without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function hasBuildScript(workspace) {
  const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
  return Boolean(manifest.scripts?.build);
}

const targets = [
  { workspace: 'contract', output: 'contract/dist/limits.js', sources: ['contract/src', 'contract/tsconfig.json'] },
  {
    workspace: 'backend',
    output: 'backend/dist/main.js',
    sources: ['backend/src', 'backend/tsconfig.json', 'backend/tsconfig.build.json', 'nest-cli.json', 'contract/src'],
  },
  {
    workspace: 'frontend',
    output: 'frontend/dist/index.html',
    sources: ['frontend/src', 'frontend/index.html', 'frontend/vite.config.ts', 'contract/src'],
  },
];

export function ensureBuilt() {
  for (const target of targets) {
    if (!hasBuildScript(target.workspace)) continue;
    const output = join(root, target.output);
    const built = existsSync(output) ? statSync(output).mtimeMs : 0;
    const sources = Math.max(...target.sources.map((source) => newestMtime(join(root, source))));
    if (built >= sources) continue;
    console.log(`Building ${target.workspace}…`);
    const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`Building ${target.workspace} failed`);
      process.exit(result.status ?? 1);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuilt();
