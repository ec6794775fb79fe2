import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZERO, cleanEnv } from './helpers/zero.js';

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

t.test('examples/conversation.mjs drives a multi-turn conversation: a tool, a denied write, an interrupt, the next turn', async (t) => {
  const result = spawnSync(process.execPath, ['examples/conversation.mjs'], { cwd: repo, env: cleanEnv(), encoding: 'utf8' });
  t.equal(result.status, 0, result.stderr);
  t.match(result.stdout, /\[tool\] list_directory[\s\S]*\[turn 1: success\]/);
  t.match(result.stdout, /\[asked\] write_file: deny\nYou said no, so I wrote nothing\./);
  t.match(result.stdout, /Counting: one, two, three, [\s\S]*\[turn 3: interrupted\]/);
  t.notMatch(result.stdout, /ten\./, 'the interrupted turn stopped');
  t.match(result.stdout, /> Stop\.\nStopped\.\n  \[turn 4: success\]\n\[run success, exit 0\]\n$/);
  t.notOk(existsSync(join(repo, 'NOTE.md')), 'the denied write changed nothing');
});
