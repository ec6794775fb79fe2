import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZERO, cleanEnv } from './helpers/zero.js';
import { isRunning } from './helpers/processes.js';

// The README points at these examples; they must keep running.
const repo = fileURLToPath(new URL('..', import.meta.url));

t.test('examples/readme-demo.jsonl: the offline demo reads the README and answers', async (t) => {
  const result = spawnSync(process.execPath, [ZERO, 'exec', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /This repository is \*\*zero-stream\*\*/);
  t.match(result.stderr, /^\[tool\] read_file\n\[result\] 1 # zero-stream .*\n$/);
});

t.test('examples/embed-exec.mjs runs the exec chain in-process', async (t) => {
  const result = spawnSync(process.execPath, ['examples/embed-exec.mjs'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /^tool  read_file \{"path":"README.md","max_lines":5\}\nfinal This repository is .*\nexit  0\n$/);
});

t.test('examples/check-output.mjs validates zero output from a pipe', async (t) => {
  const run = spawnSync(process.execPath, [ZERO, 'exec', '-o', 'stream-json', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'Hi'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  const check = spawnSync(process.execPath, ['examples/check-output.mjs'], { cwd: repo, input: run.stdout, encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
  t.match(check.stdout, /^valid: 1 run_start, \d+ text, 2 usage, 1 tool_call, 1 tool_result, 1 final, 1 run_end; run exit code 0\n$/);
  const broken = spawnSync(process.execPath, ['examples/check-output.mjs'], { cwd: repo, input: run.stdout.replace('"usage"', '"usage","extra":1'), encoding: 'utf8' });
  t.equal(broken.status, 1);
  t.match(broken.stderr, /^Invalid zero output at line \d+: extra: Unrecognized key: "extra"/);
});

t.test('examples/conversation.mjs holds a three-turn conversation: a write approved, one denied, a long command interrupted', async (t) => {
  const dir = t.testdir({});
  const result = spawnSync(process.execPath, ['examples/conversation.mjs', dir], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /^> Write "Remember the milk\." in NOTE\.md\.\n[\s\S]*\[asked\] write_file: allow\n  \[result\] ok: [\s\S]*\[turn 1: success\]\n/);
  t.match(result.stdout, /> Now replace the README\.\n[\s\S]*\[asked\] write_file: deny\n  \[result\] error: The client denied permission[^\n]*keep the README\n  You said no, so the README is as it was\.\n  \[turn 2: success\]\n/);
  t.match(result.stdout, /> Run the build\.\n[\s\S]*\[asked\] bash: allow\n  \[interrupt\] the command runs as pid \d+\n  \[result\] error: The command was cancelled[^\n]*\n  \[turn 3: interrupted\]\n\[run success, exit 0\]\n$/);
  t.equal(readFileSync(join(dir, 'NOTE.md'), 'utf8'), 'Remember the milk.\n', 'the approved write happened');
  t.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'keep me\n', 'the denied one did not');
  const pid = Number(/runs as pid (\d+)/.exec(result.stdout)![1]);
  t.notOk(isRunning(pid), 'the interrupted command is gone');
});
