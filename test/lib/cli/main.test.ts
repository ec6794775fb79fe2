import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageVersion } from '../../../lib/package.js';
import { promptShortcut } from '../../../lib/cli/main.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, writeScript, zero } from '../../helpers/zero.js';

// Most cases run in-process (zeroHere); a few spawn bin/zero, so the installed command itself stays tested.
t.test('bin/zero --version prints the version and exits 0; zero with no command exits 2 with its help', async (t) => {
  const version = await zero(['--version']);
  t.same([version.code, version.stdout], [0, `${packageVersion()}\n`]);
  const bare = await zero([]);
  t.same([bare.code, bare.stdout], [2, '']);
  t.match(bare.stderr, /^Usage: zero .*\[command\]/);
});

t.test("zero exec and zero redact keep V8's young generation at its start size (2 MiB); zero stats lets it grow", async (t) => {
  const dir = t.testdir({
    // at the exit, allocation that makes V8 grow its young generation, then its size
    'probe.mjs': `import { getHeapSpaceStatistics } from 'node:v8';
process.on('exit', () => {
  let kept = [];
  for (let i = 0; i < 3e6; i++) if (kept.push({ i }) > 100000) kept = [];
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stderr.write(\`new space \${newSpace.space_size / 2 ** 20} MiB\\n\`);
});`,
  });
  const env = cleanEnv({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(join(dir, 'probe.mjs')).href}` });
  const newSpace = async (args: string[]) => Number(/new space (\d+) MiB/.exec((await zero(args, { env, stdin: '' })).stderr)?.[1]);
  t.ok((await newSpace(['stats'])) >= 16, 'V8 grows it for zero stats');
  t.ok((await newSpace(['redact'])) <= 4, 'not for zero redact');
  t.ok((await newSpace(['exec', '--provider', 'scripted', '--no-session', 'hi'])) <= 4, 'nor for zero exec');
});

t.test('zero --version, -V, -v and zero version print the version, as in Zero and most CLIs', async (t) => {
  for (const flag of ['--version', '-V', '-v', 'version']) {
    const result = await zeroHere([flag]);
    t.same([result.code, result.stdout], [0, `${packageVersion()}\n`], flag);
  }
});

t.test('zero and zero sessions with no subcommand: their help on stderr, exit 2', async (t) => {
  for (const args of [[], ['sessions']]) {
    const result = await zeroHere(args);
    t.equal(result.code, 2, args.join(' '));
    t.equal(result.stdout, '');
    t.match(result.stderr, new RegExp(`^Usage: zero ${args.join(' ')}.*\\[command\\]`));
  }
});

t.test("a command-line error points to the help of the command that failed", async (t) => {
  const cases: [string[], string][] = [
    [['frob'], "Unknown command 'frob'. See zero --help."],
    [['sessions', 'frob'], "Unknown command 'frob'. See zero sessions --help."],
    [['render', '--frob'], "Unknown option '--frob'. See zero render --help."],
    [['sessions', 'list', '--frob'], "Unknown option '--frob'. See zero sessions list --help."],
    [['exec', '-o', 'text', '--model'], "Option '-m, --model <name>' argument missing. See zero exec --help."],
  ];
  for (const [args, message] of cases) {
    const result = await zeroHere(args);
    t.same([result.code, result.stderr], [2, `[zero] ${message}\n`], args.join(' '));
  }
});

t.test('-o/--output-format is the format flag of every command, --format its alias', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ text: 'Hi.' }]);
  const run = await zeroHere(['exec', '--format', 'stream-json', '--provider', 'scripted', '--script', script, 'hi']);
  t.equal(run.code, 0);
  writeFileSync(join(dir, 'run.jsonl'), run.stdout);
  for (const command of ['validate', 'stats', 'replay']) {
    const [short, alias] = [await zeroHere([command, '-o', 'json', join(dir, 'run.jsonl')]), await zeroHere([command, '--format', 'json', join(dir, 'run.jsonl')])];
    t.equal(short.code, 0, command);
    t.equal(alias.stdout, short.stdout, `${command} --format json is -o json`);
  }
  const html = await zeroHere(['render', '-o', 'html', join(dir, 'run.jsonl')]);
  t.match(html.stdout, /^<!doctype html>/i, 'zero render -o html');
  for (const args of [['sessions', 'list'], ['exec']]) t.match((await zeroHere([...args, '--help'])).stdout, '-o, --output-format <format>');
});

t.test('zero --help lists the commands', async (t) => {
  const result = await zeroHere(['--help']);
  t.equal(result.code, 0);
  t.match(result.stdout, /exec \[options\] \[prompt\.\.\.\]/);
});

t.test('zero exec --help lists every flag, with an example', async (t) => {
  const result = await zeroHere(['exec', '--help']);
  t.equal(result.code, 0);
  for (const flag of ['--input-format', '--output-format', '--file', '--model', '--provider', '--script', '--cwd', '--max-turns', '--max-line-bytes', '--max-retries', '--timeout', '--idle-timeout', '--debug', '-i,', '-o,', '-f,', '-m,', '-C,']) {
    t.match(result.stdout, flag);
  }
  t.match(result.stdout, /Examples:\n\s+\$ zero exec/);
});

// Each usage error: exit 2; in stream-json mode exactly error + run_end on stdout (no run_start), quiet stderr.
const usageErrors: [string, string[], RegExp, NodeJS.ProcessEnv?][] = [
  ['an unknown output format, reported as text', ['-o', 'xml', 'hi'], /Invalid value for --output-format: "xml"/],
  ['an unknown input format', ['-o', 'stream-json', '-i', 'yaml', 'hi'], /Invalid value for --input-format: "yaml"/],
  ['--max-turns abc', ['-o', 'stream-json', '--max-turns', 'abc', 'hi'], /Invalid value for --max-turns: "abc"\. Expected a positive integer\./],
  ['--max-turns 0', ['-o', 'stream-json', '--max-turns', '0', 'hi'], /--max-turns: "0"/],
  ['--max-line-bytes -5', ['-o', 'stream-json', '--max-line-bytes=-5', 'hi'], /--max-line-bytes/],
  ['--max-retries -1', ['-o', 'stream-json', '--max-retries=-1', 'hi'], /Invalid value for --max-retries: "-1"\. Expected a whole number/],
  ['--timeout soon', ['-o', 'stream-json', '--timeout', 'soon', 'hi'], /Invalid value for --timeout: "soon"\. Expected a positive number of seconds, at most 2147483\./],
  ['--idle-timeout 0', ['-o', 'stream-json', '--idle-timeout', '0', 'hi'], /Invalid value for --idle-timeout: "0"/],
  ['a missing --cwd', ['-o', 'stream-json', '-C', '/no/such/dir', 'hi'], /Working directory not found: \/no\/such\/dir/],
  ['a missing --file', ['-o', 'stream-json', '--file', 'nope.md'], /Cannot read --file .*nope\.md: ENOENT/],
  ['an unknown flag', ['--output-format=stream-json', '--frobnicate', 'hi'], /Unknown option '--frobnicate'/],
  ['a flag without its value', ['-o', 'stream-json', 'hi', '--model'], /argument missing/],
  ['no prompt at all', ['-o', 'stream-json'], /No prompt given/],
  ["--add-dir ''", ['-o', 'stream-json', '--add-dir', '', 'hi'], /^Invalid value for --add-dir: ""\. Expected a directory\.$/],
  ['stream-json input with positional text', ['-o', 'stream-json', '-i', 'stream-json', 'hi'], /^Stream-json input does not accept positional prompt text\. Pipe JSONL or use --file\.$/],
  ['an unknown provider', ['-o', 'stream-json', '--provider', 'nonesuch', 'hi'], /Unknown provider "nonesuch"\. Available providers: scripted, openai, anthropic, anthropic-compatible, openai-compatible\./],
  ['the scripted provider without a script', ['-o', 'stream-json', '--provider', 'scripted', 'hi'], /needs a script: pass --script PATH or set ZERO_SCRIPT=PATH/, cleanEnv()],
  ['a missing script', ['-o', 'stream-json', '--provider', 'scripted', '--script', 'missing.jsonl', 'hi'], /Cannot read the script .*missing\.jsonl: ENOENT/],
];

for (const [what, args, message, env] of usageErrors) {
  t.test(`usage error: ${what}`, async (t) => {
    const dir = t.testdir({});
    const result = await zeroHere(['exec', ...args], { cwd: dir, env: env ?? cleanEnv({ ZERO_PROVIDER: 'scripted', ZERO_SCRIPT: writeScript(dir, [{ text: 'unused' }]) }) });
    t.equal(result.code, 2, result.stdout + result.stderr);
    if (args.join(' ').includes('stream-json')) {
      const events = jsonLines(result.stdout);
      t.same(events.map((event) => event.type), ['error', 'run_end']);
      t.match(events[0], { code: 'usage_error', recoverable: true, message });
      t.match(events[1], { status: 'error', exitCode: 2 });
      t.equal(result.stderr, '');
    } else {
      t.equal(result.stdout, '');
      t.match(result.stderr.replace(/^\[zero\] /, '').trim(), message);
    }
  });
}

t.test('usage error in json format: error then done', async (t) => {
  const result = await zeroHere(['exec', '-o', 'json', '--max-turns', 'many', 'hi']);
  t.equal(result.code, 2);
  t.same(jsonLines(result.stdout), [
    { type: 'error', code: 'usage_error', message: 'Invalid value for --max-turns: "many". Expected a positive integer.' },
    { type: 'done', exit_code: 2 },
  ]);
});

const inputErrors: [string, string | undefined, RegExp][] = [
  ['not JSON', '{"schemaVersion":1,"type":"prompt","content":"ok"}\n\nnot json\n', /^Invalid stream-json input at line 3: expected a JSON object, but the line is not JSON \(Unexpected token 'o'\)\.$/],
  ['pretty-printed JSON (jq .)', '{\n  "schemaVersion": 1\n}\n', /^Invalid stream-json input at line 1: expected a JSON object, but the line is not JSON \(.+\)\. It looks like pretty-printed JSON: each event must be one line of compact JSON \(jq -c\)\.$/],
  ['a torn line', '{"schemaVersion":1,"type":"pro\n', /^Invalid stream-json input at line 1: expected a JSON object, but the line is not JSON \(.+\)\.$/],
  ['a JSON array', '[1]\n', /^Invalid stream-json input at line 1: expected a JSON object\.$/],
  ['an unknown field', '{"schemaVersion":1,"type":"prompt","content":"x","extra":1}\n', /^Invalid stream-json input at line 1: extra: Unrecognized key: "extra"$/],
  ['schemaVersion 3', '{"schemaVersion":3,"type":"prompt","content":"x"}\n', /^Invalid stream-json input at line 1: schemaVersion: /],
  ['no input', '', /^Stream-json input required\. Pipe JSONL or use --file\.$/],
  ['only blank lines', '\n  \n\r\n', /^Stream-json input required\./],
  ['only empty contents', '{"schemaVersion":1,"type":"prompt","content":"   "}\n', /^Stream-json input must include at least one prompt or user message event\.$/],
];

for (const [what, stdin, message] of inputErrors) {
  t.test(`stream-json input error: ${what}`, async (t) => {
    const dir = t.testdir({});
    const script = writeScript(dir, [{ expect: { contains: ['never reached'] }, text: 'unused' }]);
    const result = await zeroHere(['exec', '-i', 'stream-json', '-o', 'stream-json', '--provider', 'scripted', '--script', script], { stdin });
    t.equal(result.code, 2);
    const events = jsonLines(result.stdout);
    t.same(events.map((event) => event.type), ['error', 'run_end']);
    t.match(events[0], { code: 'usage_error', message });
  });
}

t.test('an input line over --max-line-bytes names the line (bin/zero reading a real pipe)', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ text: 'unused' }]);
  const line = JSON.stringify({ schemaVersion: 1, type: 'prompt', content: 'x'.repeat(200) });
  const result = await zero(['exec', '-i', 'stream-json', '-o', 'stream-json', '--max-line-bytes', '100', '--provider', 'scripted', '--script', script], { stdin: `{"schemaVersion":1,"type":"prompt","content":"ok"}\n${line}\n` });
  t.equal(result.code, 2);
  t.match(jsonLines(result.stdout)[0], { message: /^Invalid stream-json input at line 2: the line is longer than 100 bytes/ });
});

t.test('a script with an unknown field is a usage error naming the line', async (t) => {
  const dir = t.testdir({});
  const script = join(dir, 'bad.jsonl');
  writeFileSync(script, '{"text":"fine"}\n{"text":"x","chunk":["typo"]}\n');
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, 'hi']);
  t.equal(result.code, 2);
  t.match(jsonLines(result.stdout)[0], { code: 'usage_error', message: `Invalid script ${script} at line 2: chunk: Unrecognized key: "chunk"` });
});

t.test('no provider configured: provider_error, exit 3, saying how to configure one', async (t) => {
  for (const format of ['stream-json', 'text']) {
    const result = await zeroHere(['exec', '-o', format, 'hi']);
    t.equal(result.code, 3);
    const message = format === 'text' ? result.stderr : String(jsonLines(result.stdout)[0]?.message);
    t.match(message, /No model provider is configured\. Set OPENAI_API_KEY or ANTHROPIC_API_KEY.*--provider scripted --script PATH/);
    if (format === 'stream-json') t.match(jsonLines(result.stdout), [{ type: 'error', code: 'provider_error', recoverable: false }, { type: 'run_end', exitCode: 3 }]);
  }
});

t.test('--debug prints the failure with its stack on stderr, redacted', async (t) => {
  const result = await zeroHere(['exec', '-o', 'stream-json', '--debug', '--max-turns', 'x', 'hi']);
  t.equal(result.code, 2);
  t.match(result.stderr, /^\[zero debug\] UsageError: Invalid value for --max-turns/);
  t.match(result.stderr, /at execSettings/);
});

t.test('zero -p TEXT is zero exec --prompt TEXT; a prompt that starts with - is taken as it is', async (t) => {
  t.same(promptShortcut(['-p', 'hi', '-o', 'json']), ['exec', '--prompt=hi', '-o', 'json']);
  t.same(promptShortcut(['--prompt', '-foo']), ['exec', '--prompt=-foo']);
  t.same(promptShortcut(['--prompt=hi']), ['exec', '--prompt=hi']);
  t.same(promptShortcut(['-phi']), ['exec', '-phi']);
  t.same(promptShortcut(['-p']), ['exec', '-p'], "exec's own error for the missing value");
  t.same(promptShortcut(['exec', '-p', 'hi']), ['exec', '-p', 'hi']);
  t.same(promptShortcut(['render', 'run.jsonl']), ['render', 'run.jsonl']);
  t.same(promptShortcut([]), []);
});

t.test('zero -p "hi" -o stream-json --provider scripted --script s.jsonl: a whole exec run', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ expect: { contains: ['hi'] }, text: 'Hello.' }]);
  const run = await zeroHere(['-p', 'hi', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--no-session']);
  t.equal(run.code, 0, run.stderr);
  t.match(jsonLines(run.stdout), [{ type: 'run_start' }, { type: 'text' }, { type: 'final', text: 'Hello.' }, { type: 'run_end', exitCode: 0 }]);
  const dashed = writeScript(dir, [{ expect: { contains: ['-v is verbose?'] }, text: 'Yes.' }], 'dashed.jsonl');
  const dash = await zeroHere(['-p', '-v is verbose?', '--provider', 'scripted', '--script', dashed, '-C', dir, '--no-session']);
  t.same([dash.code, dash.stdout], [0, 'Yes.\n']);
  const missing = await zeroHere(['-p']);
  t.same([missing.code, missing.stderr], [2, "[zero] Option '-p, --prompt <text>' argument missing. See zero exec --help.\n"]);
  const help = await zeroHere(['--help']);
  t.match(help.stdout, '`zero -p TEXT [exec options]` is short for `zero exec --prompt TEXT [exec options]`.');
});
