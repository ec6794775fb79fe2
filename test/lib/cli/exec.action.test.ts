import t, { type Test } from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZERO, cleanEnv, jsonLines, tempDir, writeScript } from '../../helpers/zero.js';

// Zero's GitHub Action, run for real against bin/zero: the "Run ZERO" step of Zero's action.yml (its shell script,
// as the workflow runs it) builds the argv and calls `zero`, and Zero's scripts/action-summary.mjs reads the output,
// both taken from the mirror of Zero's repository at test time (never copied here). What the Action reads is
// checked: the exit code, the summary (the last final or error), and the file the run changed.

const MIRROR = process.env.ZERO_GO_MIRROR ?? '/work/.mirror/eli-l+zero/repo';
const fromMirror = (path: string) => execFileSync('git', ['-C', MIRROR, 'show', `HEAD:${path}`], { encoding: 'utf8' });

/** The `run: |` script of the step named "Run ZERO", dedented (action.yml is plain enough to cut by indentation). */
function runZeroStep(actionYml: string): string {
  const lines = actionYml.split('\n');
  const step = lines.findIndex((line) => /^\s*- name: Run ZERO\s*$/.test(line));
  const run = lines.findIndex((line, index) => index > step && /^\s*run: \|\s*$/.test(line));
  const keyIndent = lines[run]!.search(/\S/);
  const body: string[] = [];
  for (const line of lines.slice(run + 1)) {
    if (line.trim() !== '' && line.search(/\S/) <= keyIndent) break;
    body.push(line);
  }
  const indent = Math.min(...body.filter((line) => line.trim()).map((line) => line.search(/\S/)));
  return body.map((line) => line.slice(indent)).join('\n');
}

/** GitHub's $GITHUB_OUTPUT: `name=value` lines and `name<<DELIMITER` blocks. */
function outputs(file: string): Record<string, string> {
  const found: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const block = /^([\w-]+)<<(\w+)$/.exec(lines[index]!);
    if (block) {
      const end = lines.indexOf(block[2]!, index + 1);
      found[block[1]!] = lines.slice(index + 1, end).join('\n');
      index = end;
    } else if (lines[index]!.includes('=')) {
      const at = lines[index]!.indexOf('=');
      found[lines[index]!.slice(0, at)] = lines[index]!.slice(at + 1);
    }
  }
  return found;
}

type Inputs = { prompt?: string; 'prompt-file'?: string; model?: string; mode?: string; auto?: string; 'self-correct'?: string; 'add-dir'?: string; worktree?: string; 'output-format'?: string };

/** action.yml's defaults for the inputs the step reads. */
const DEFAULTS: Inputs = { prompt: '', 'prompt-file': '', model: '', mode: '', auto: 'low', 'self-correct': 'false', 'add-dir': '', worktree: 'false', 'output-format': 'stream-json' };

/** The step run as the workflow runs it (bash -eo pipefail, in the working directory), with `zero` on PATH recording its argv. */
async function runAction(t: Test, workdir: string, inputs: Inputs, turns: unknown[], env: NodeJS.ProcessEnv = {}) {
  const action = tempDir(t);
  mkdirSync(join(action, 'scripts'));
  writeFileSync(join(action, 'scripts', 'action-summary.mjs'), fromMirror('scripts/action-summary.mjs'));
  const step = join(action, 'run-zero.sh');
  writeFileSync(step, runZeroStep(fromMirror('action.yml')));
  const bin = join(action, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'zero'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(action, 'argv.txt')}'\nexec '${process.execPath}' '${ZERO}' "$@"\n`);
  chmodSync(join(bin, 'zero'), 0o755);
  const runnerTemp = tempDir(t);
  const githubOutput = join(runnerTemp, 'github-output');
  writeFileSync(githubOutput, '');
  const given = { ...DEFAULTS, ...inputs };
  const inputEnv = Object.fromEntries(Object.entries(given).map(([name, value]) => [`ZERO_INPUT_${name.toUpperCase().replace(/-/g, '_')}`, value]));
  const stepEnv = cleanEnv({
    ...inputEnv,
    ZERO_INPUT_PROVIDER: 'scripted',
    ZERO_INPUT_API_KEY: '',
    ZERO_INPUT_API_KEY_ENV: '',
    ZERO_SCRIPT: writeScript(tempDir(t), turns),
    ZERO_HOME: tempDir(t),
    ACTION_PATH: action,
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: githubOutput,
    PATH: `${bin}:${process.env.PATH}`,
    ...env,
  });
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', step], { cwd: workdir, env: stepEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const out = outputs(githubOutput);
  const argv = readFileSync(join(action, 'argv.txt'), 'utf8').replace(/\n$/, '').split('\n');
  return { status, log, argv, exitCode: out['exit-code'], summary: out.summary, output: readFileSync(out['output-file']!, 'utf8') };
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd, encoding: 'utf8' }).trim();

/** A checked-out repository, as actions/checkout leaves it. */
function checkout(t: Test): string {
  const repo = realpathSync(tempDir(t, { 'README.md': '# projetc\n' }));
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  return repo;
}

const fix = { id: 'w1', name: 'write_file', args: { path: 'README.md', content: '# project\n' } };

t.test("Zero's Action, its defaults: --prompt, --auto low, stream-json; the fix is written; exit 0 and the final as the summary", { skip: !existsSync(MIRROR) && `no mirror of Zero's repository at ${MIRROR}` }, async (t) => {
  const repo = checkout(t);
  const run = await runAction(t, repo, { prompt: 'Fix the typo in README.md' }, [{ expect: { contains: ['Fix the typo in README.md'] }, toolCalls: [fix] }, { text: 'Fixed the typo in README.md.' }]);
  t.same(run.argv, ['exec', '--prompt', 'Fix the typo in README.md', '--auto', 'low', '--output-format', 'stream-json', '--no-notify'], 'the argv the Action builds');
  t.equal(run.status, 0, run.log);
  t.equal(run.exitCode, '0');
  t.equal(run.summary, 'Fixed the typo in README.md.');
  t.match(jsonLines(run.output).at(-1), { type: 'run_end', status: 'success', exitCode: 0 });
  // `auto: low` lets the model write inside the workspace, as in Zero (wt-sandbox makes it so)
  t.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# project\n', 'the file written at auto: low');
});

t.test("Zero's Action with mode, self-correct, add-dir, worktree, model and output-format: json", { skip: !existsSync(MIRROR) && `no mirror of Zero's repository at ${MIRROR}` }, async (t) => {
  const repo = checkout(t);
  for (const dir of ['extra', 'shared dir', 'other']) mkdirSync(join(repo, dir));
  // as a YAML `|` block gives it, with its last newline: the step's `read` loop drops a last entry without one
  const inputs = { prompt: 'Fix the typo in README.md', model: 'my-model', mode: 'deep', 'self-correct': 'true', 'add-dir': 'extra, shared dir \nother\n', worktree: 'true', 'output-format': 'json' };
  const run = await runAction(t, repo, inputs, [{ toolCalls: [fix] }, { text: 'Fixed it in a worktree.' }]);
  t.same(run.argv, ['exec', '--prompt', 'Fix the typo in README.md', '--model', 'my-model', '--mode', 'deep', '--auto', 'low', '--allow-escalation', '--worktree', '--output-format', 'json', '--no-notify', '--add-dir', 'extra', '--add-dir', 'shared dir', '--add-dir', 'other']);
  t.equal(run.status, 0, run.log);
  t.equal(run.exitCode, '0');
  t.equal(run.summary, 'Fixed it in a worktree.');
  const lines = jsonLines(run.output);
  t.match(lines[0], { type: 'run_start', model: 'my-model' });
  const worktree = String(lines[0]!.cwd);
  t.not(worktree, repo, 'the run works in a worktree');
  t.same(lines.filter((line) => line.type === 'warning').map((line) => String(line.message).split(/[:,]/)[0]), ['--mode deep', '--allow-escalation changes nothing here', 'This run works in a new git worktree']);
  t.same(lines.at(-1), { type: 'done', exit_code: 0 });
  t.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# projetc\n', 'the checkout is untouched');
  // `auto: low` lets the model write inside the workspace, here the worktree (wt-sandbox makes it so)
  t.equal(readFileSync(join(worktree, 'README.md'), 'utf8'), '# project\n', 'the file written at auto: low, in the worktree');
});

t.test("Zero's Action when the run stops at the turn limit: exit 4, and the summary is the error, which comes after the final", { skip: !existsSync(MIRROR) && `no mirror of Zero's repository at ${MIRROR}` }, async (t) => {
  const repo = checkout(t);
  writeFileSync(join(repo, 'task.md'), 'Read the README.\n');
  const turns = [{ toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'README.md' } }] }, { text: 'I read the README; nothing more.' }];
  const run = await runAction(t, repo, { 'prompt-file': 'task.md' }, turns, { ZERO_MAX_TURNS: '1' });
  t.same(run.argv, ['exec', '--file', 'task.md', '--auto', 'low', '--output-format', 'stream-json', '--no-notify']);
  t.equal(run.status, 4);
  t.equal(run.exitCode, '4');
  t.equal(run.summary, 'Reached the turn limit (1) before the model finished. Raise it with --max-turns.');
  t.match(jsonLines(run.output).slice(-3), [{ type: 'final', text: 'I read the README; nothing more.' }, { type: 'error', code: 'max_turns' }, { type: 'run_end', exitCode: 4 }]);
});
