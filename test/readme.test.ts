import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { cleanEnv } from './helpers/zero.js';
import { REPO } from './helpers/repo.js';

// The README's shell examples, run as a newcomer would paste them, from a checkout's root.
const repo = REPO;
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Examples that need what a test has not: a real key, or the commands that run this suite. */
const needsMore = (block: string) => /sk-…|^npm test$/m.test(block);

/** Runs a block in a checkout of its own (the repository's code linked in), with a sessions folder of its own. */
function run(t: Test, block: string) {
  const dir = t.testdir({});
  for (const name of ['bin', 'dist', 'examples', 'node_modules', 'package.json']) symlinkSync(join(repo, name), join(dir, name));
  copyFileSync(join(repo, 'README.md'), join(dir, 'README.md')); // the demo reads it, and tools never follow a link out
  const script = block.replace(/^npm ci && /m, '');
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env: cleanEnv({ ZERO_HOME: join(dir, '.zero') }), encoding: 'utf8' });
  return { ...result, dir };
}

t.test('the README has shell examples, and the ones a test can run are all kept here', async (t) => {
  t.ok(blocks.length >= 5, `${blocks.length} blocks`);
  t.ok(blocks.some((block) => /^npm test$/m.test(block)), 'the test command');
  t.ok(blocks.some((block) => /^npm ci && \.\/bin\/zero exec /m.test(block)), 'the install-and-run command');
});

for (const block of blocks.filter((block) => !needsMore(block))) {
  t.test(`README example: ${block.split('\n')[0]}`, async (t) => {
    const result = run(t, block);
    t.equal(result.status, 0, result.stderr);
    t.notMatch(result.stdout + result.stderr, /sk-[A-Za-z0-9]{20}/, 'no secret');
    if (/readme-demo\.jsonl "What is this repo\?"\n$/.test(block)) t.match(result.stdout, /This repository is \*\*zero-stream\*\*/);
    if (block.includes('--mcp-config')) t.match(result.stdout, /^MCP server fs:\nmcp_fs_read_file +read +allow +on /);
    if (block.includes('@tsv')) t.equal(result.stdout, 'tool_call\tread_file\nrun_end\t0\n');
    if (block.includes('"schemaVersion":2')) t.match(JSON.parse(result.stdout), { schemaVersion: 2, type: 'run_end', status: 'success', exitCode: 0 });
    if (block.includes('zero validate run.jsonl')) {
      t.match(result.stdout, /^valid: \d+ events, 1 run$/m);
      t.match(result.stdout, /  model turns {7}2\n/);
      t.equal(readFileSync(join(result.dir, 'shared.jsonl'), 'utf8'), readFileSync(join(result.dir, 'run.jsonl'), 'utf8'), 'a clean log comes out of redact byte-identical');
      t.ok(existsSync(join(result.dir, 'run.html')));
    }
    if (block.includes('--resume')) t.match(result.stdout, /This repository is[^]*This repository is[^]*\nzero_\w+ .* What is this repo\?\n$/, 'answered twice, one session');
    if (block.includes('check-output.mjs')) t.match(result.stdout, /^valid: .*run exit code 0\n$/);
  });
}

t.test("the links of the README and of docs/ point at files (and headings) that exist", async (t) => {
  const anchor = (heading: string) => heading.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
  const headings = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((match) => anchor(match[1]!)));
  const docs = ['README.md', ...['exec', 'protocol', 'log-tools', 'redaction', 'design', 'performance', 'api'].map((name) => `docs/${name}.md`)];
  for (const doc of docs) {
    const from = join(repo, doc, '..');
    for (const [, target] of readFileSync(join(repo, doc), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):/.test(target!)) continue;
      const [path, hash] = target!.split('#');
      const file = path ? join(from, path) : join(repo, doc);
      t.ok(existsSync(file), `${doc}: ${target}`);
      if (hash && file.endsWith('.md') && existsSync(file)) t.ok(headings(file).has(hash), `${doc}: #${hash} is a heading of ${path || doc}`);
    }
  }
});
