import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zeroHere } from './helpers/cli.js';
import { ZERO, cleanEnv, tempDir } from './helpers/zero.js';
import { PROGRESS_LINE, onTerminal, screenLines } from './helpers/terminal.js';
import { isRunning } from './helpers/processes.js';
import { REPO } from './helpers/repo.js';

// The README points at these examples; they must keep running. The examples run as the README runs them (bin/zero,
// node, bash); zero runs in this process only where it prepares what an example reads.
const repo = REPO;

t.test('examples/readme-demo.jsonl: the offline demo reads the README and answers', async (t) => {
  const result = spawnSync(process.execPath, [ZERO, 'exec', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /This repository is \*\*zero-stream\*\*/);
  t.match(result.stderr, /^\[tool\] read_file README\.md\n\[ok\] \d+ lines\n$/);
  t.notMatch(result.stdout + result.stderr, /\x1b/, 'piped: no escape codes');
});

t.test('the README demo in a terminal: every line on the screen is the answer or a whole progress line, in colour', async (t) => {
  const { NO_COLOR: _tapSetsIt, ...env } = cleanEnv({ ZERO_HOME: tempDir(t) });
  const raw = await onTerminal([process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'], { cwd: repo, env, columns: 80 });
  const answer = ['Let me read the README.', 'This repository is **zero-stream**: `zero exec`, a headless coding agent whose every step is reported as redacted, schema-versioned JSON events.'];
  const lines = screenLines(raw).filter((line) => line !== '');
  t.same(lines.filter((line) => !PROGRESS_LINE.test(line)), answer, 'the answer, whole lines of it, in order');
  t.match(lines, ['Let me read the README.', '[tool] read_file README.md', /^\[ok\] \d+ lines$/, answer[1], /^\[zero\] session zero_\w+; continue it with: zero exec --resume zero_\w+ "<next prompt>"$/]);
  t.match(raw, '\x1b[36m[tool]\x1b[39m', 'colour on a terminal');
  const plain = await onTerminal([process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'], { cwd: repo, env: { ...env, NO_COLOR: '1' } });
  t.notMatch(plain, /\x1b\[3\dm/, 'NO_COLOR: no colour');
});

t.test("the README's session tour: the demo, sessions list, then --resume with no provider flags", async (t) => {
  const env = cleanEnv({ ZERO_HOME: tempDir(t) });
  const run = (args: string[]) => zeroHere(args, { cwd: repo, env });
  t.equal((await run(['exec', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'])).code, 0);
  const list = await run(['sessions', 'list']);
  t.match(list.stdout, /^zero_\w+ .* What is this repo\?\n$/);
  const resumed = await run(['exec', '--resume', 'And how is it tested?']);
  t.equal(resumed.code, 0, resumed.stderr);
  t.match(resumed.stdout, /This repository is/);
});

t.test('examples/embed-exec.mjs runs the exec chain in-process', async (t) => {
  const result = spawnSync(process.execPath, ['examples/embed-exec.mjs'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /^tool  read_file \{"path":"README.md","max_lines":5\}\nfinal This repository is .*\nexit  0\n$/);
});

t.test('examples/check-output.mjs validates zero output from a pipe', async (t) => {
  const run = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'Hi'], { cwd: repo });
  const check = spawnSync(process.execPath, ['examples/check-output.mjs'], { cwd: repo, input: run.stdout, encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
  t.match(check.stdout, /^valid: 1 run_start, \d+ text, 2 usage, 1 tool_call, 1 tool_result, 1 final, 1 run_end; run exit code 0\n$/);
  const broken = spawnSync(process.execPath, ['examples/check-output.mjs'], { cwd: repo, input: run.stdout.replace('"usage"', '"usage","extra":1'), encoding: 'utf8' });
  t.equal(broken.status, 1);
  t.match(broken.stderr, /^Invalid zero output at line \d+: extra: Unrecognized key: "extra"/);
});

t.test('examples/conversation.mjs holds a three-turn conversation: a write auto-allowed, a command denied, one interrupted', async (t) => {
  const dir = t.testdir({});
  const result = spawnSync(process.execPath, ['examples/conversation.mjs', dir], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /^> Write "Remember the milk\." in NOTE\.md\.\n[\s\S]*\[auto\] write_file: Auto-allowed at --auto low: a write inside the working directory[^\n]*\n  \[result\] ok: [\s\S]*\[turn 1: success\]\n/);
  t.match(result.stdout, /> Now delete the README\.\n[\s\S]*\[asked\] bash: deny\n  \[result\] error: The client denied permission[^\n]*keep the README\n  You said no, so the README is as it was\.\n  \[turn 2: success\]\n/);
  t.match(result.stdout, /> Run the build\.\n[\s\S]*\[asked\] bash: allow\n  \[interrupt\] the command runs as pid \d+\n  \[result\] error: The command was cancelled[^\n]*\n  \[turn 3: interrupted\]\n\[run success, exit 0\]\n$/);
  t.equal(readFileSync(join(dir, 'NOTE.md'), 'utf8'), 'Remember the milk.\n', 'the approved write happened');
  t.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'keep me\n', 'the denied one did not');
  const pid = Number(/runs as pid (\d+)/.exec(result.stdout)![1]);
  t.notOk(isRunning(pid), 'the interrupted command is gone');
});

t.test('examples/ci-review.sh: the verdict read with jq; pass exits 0, fail fails the job, no conforming answer exits 4', { skip: spawnSync('jq', ['--version']).error ? 'jq is not installed' : false }, async (t) => {
  const dir = tempDir(t);
  const review = (answers: string[]) => {
    const script = join(dir, 'review.jsonl');
    writeFileSync(script, answers.map((text) => JSON.stringify({ text, usage: { promptTokens: 1000, completionTokens: 100 } })).join('\n') + '\n');
    const args = ['--provider', 'scripted', '--script', script, '--model', 'gpt-4.1', '--output-retries', '1'];
    return spawnSync(join(repo, 'examples', 'ci-review.sh'), args, { cwd: dir, env: cleanEnv({ ZERO: `${process.execPath} ${ZERO}`, ZERO_HOME: join(dir, '.zero') }), encoding: 'utf8' });
  };
  const pass = review(['{"verdict": "pass", "issues": []}']);
  t.equal(pass.status, 0, pass.stderr);
  t.equal(pass.stdout, 'review verdict: pass\n');
  t.equal(pass.stderr, 'review cost: $0.0028\n');
  const fail = review(['Some prose first.', '{"verdict": "fail", "issues": ["a.ts:3: unused import"]}']);
  t.equal(fail.status, 1);
  t.equal(fail.stdout, '- a.ts:3: unused import\nreview verdict: fail\n');
  t.equal(fail.stderr, 'review cost: $0.0056\n');
  const never = review(['no', 'still no']);
  t.equal(never.status, 4);
  t.match(never.stderr, /^review cost: \$0\.0056\nzero: invalid_output: The answer does not conform to --output-schema after 1 retry: the answer is not a JSON document\.\n$/);
});
