import t, { type Test } from 'tap';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, eventTypes, jsonLines, nth, streamedText, writeScript, zero } from '../../helpers/zero.js';

// End to end with the scripted provider: stdout, stderr and the exit code are what a user sees. The runs are
// in-process (zeroHere, through main as bin/zero runs it); the first one and stdin's cases spawn bin/zero itself.


async function exec(t: Test, turns: unknown[], args: string[] = [], files: Record<string, string> = {}, run = zeroHere) {
  const dir = t.testdir(files);
  const script = writeScript(dir, turns);
  const result = await run(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...args]);
  const events = jsonLines(result.stdout);
  for (const event of events) t.ok(checkAgainstSchema('output', event).ok, `${event.type} matches the output schema`);
  if (events.length) {
    t.equal(new Set(events.map((event) => event.runId)).size, 1, 'one runId');
    t.equal(events.filter((event) => event.type === 'run_end').length, 1, 'exactly one run_end');
    t.equal(events.at(-1)?.type, 'run_end', 'run_end is last');
    t.equal(events.at(-1)?.exitCode, result.code, 'the process exits with run_end.exitCode');
  }
  t.equal(result.stderr, '', 'stderr stays quiet in stream-json mode');
  return { ...result, events, dir };
}

t.test('a plain answer, from bin/zero', async (t) => {
  const { events, code, dir } = await exec(t, [{ chunks: ['Hello', ', world.'], usage: { promptTokens: 5, completionTokens: 3 } }], ['Say hello'], {}, zero);
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'text', 'usage', 'final', 'run_end']);
  t.match(events[0], { schemaVersion: 1, cwd: dir, provider: 'scripted', model: 'scripted' });
  t.match(nth(events, 'usage'), { promptTokens: 5, completionTokens: 3, totalTokens: 8 });
  t.match(nth(events, 'final'), { text: 'Hello, world.' });
  t.equal(streamedText(events), 'Hello, world.');
  t.match(events.at(-1), { status: 'success', exitCode: 0 });
});

t.test('--model is reported in run_start', async (t) => {
  const { events } = await exec(t, [{ text: 'ok' }], ['-m', 'my-model', 'hi']);
  t.match(events[0], { model: 'my-model', provider: 'scripted' });
});

t.test('a tool round trip: the result reaches the model', async (t) => {
  const { events, code } = await exec(
    t,
    [
      { chunks: ['Let me look.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }] },
      { expect: { contains: ['Summarise notes.txt', 'Let me look.', 'read_file', 'the launch moves to Friday'] }, text: 'The launch moves to Friday.' },
    ],
    ['Summarise', 'notes.txt'],
    { 'notes.txt': 'the launch moves to Friday\n' },
  );
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'text', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.match(nth(events, 'tool_call'), { id: 'call_1', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' });
  t.match(nth(events, 'tool_result'), { id: 'call_1', status: 'ok', output: '     1\tthe launch moves to Friday', truncated: false });
});

t.test('a tool error: reported as a result, and the run goes on', async (t) => {
  const { events, code } = await exec(t, [{ toolCalls: [{ id: 'c1', name: 'read_file', args: { path: '/etc/passwd' } }] }, { expect: { contains: ['outside the working directory'] }, text: 'Not allowed.' }], ['read it']);
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.match(nth(events, 'tool_result'), { status: 'error', output: /outside the working directory/ });
});

t.test('a provider error mid-stream keeps the deltas before it', async (t) => {
  const { events, code } = await exec(t, [{ chunks: ['Half ', 'an answer'], error: { message: 'upstream overloaded', status: 529 } }], ['go']);
  t.equal(code, 3);
  t.same(eventTypes(events), ['run_start', 'text', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'provider_error', recoverable: false, message: /upstream overloaded/ });
  t.equal(streamedText(events), 'Half an answer');
  t.match(events.at(-1), { status: 'error', exitCode: 3 });
});

t.test('the turn limit: one more call asks for the answer, then max_turns, exit 4', async (t) => {
  const again = { text: 'Still working.', toolCalls: [{ name: 'list_directory', args: {} }] };
  const last = { expect: { contains: ['You have reached the tool-turn limit. Do not call tools.'] }, text: 'Listed it twice; not done.', toolCalls: [{ name: 'list_directory', args: {} }] };
  const { events, code } = await exec(t, [again, again, last], ['--max-turns', '2', 'go']);
  t.equal(code, 4);
  t.same(eventTypes(events), ['run_start', 'text', 'tool_call', 'tool_result', 'text', 'tool_call', 'tool_result', 'text', 'final', 'error', 'run_end']);
  t.match(nth(events, 'final'), { text: 'Listed it twice; not done.' });
  t.match(nth(events, 'error'), { code: 'max_turns', recoverable: true });
  t.match(events.at(-1), { status: 'error', exitCode: 4 });
});

// Node's 32-bit timers turn 2^31 ms or more into 1 ms: a run accepting this value failed every model call at once.
t.test('a --timeout longer than a timer can wait is a usage error, not an instant timeout', async (t) => {
  const { events, code } = await exec(t, [{ text: 'unused' }], ['--timeout', '2147484', 'go']);
  t.equal(code, 2);
  t.same(eventTypes(events), ['error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'usage_error', message: 'Invalid value for --timeout: "2147484". Expected a positive number of seconds, at most 2147483.' });
});

t.test('running out of script is a provider error naming the turn', async (t) => {
  const { events, code } = await exec(t, [{ toolCalls: [{ name: 'list_directory', args: {} }] }], ['go']);
  t.equal(code, 3);
  t.match(events.at(-2), { code: 'provider_error', message: /no turn 2/ });
});

t.test('expect.contains fails the turn when the string never reached the model', async (t) => {
  const { events, code } = await exec(t, [{ expect: { contains: ['a word nobody said'] }, text: 'x' }], ['hello']);
  t.equal(code, 3);
  t.match(events.at(-2), { code: 'provider_error', message: /turn 1 .*"a word nobody said"/ });
});

t.test('stream-json input from stdin and from --file', async (t) => {
  const dir = t.testdir({});
  const jsonl = '\uFEFF{"schemaVersion":1,"type":"message","role":"user","content":"  First part. "}\r\n\n{"schemaVersion":1,"type":"prompt","content":"Second part."}\n';
  writeFileSync(join(dir, 'turns.jsonl'), jsonl);
  const script = writeScript(dir, [{ expect: { contains: ['First part.\n\nSecond part.'] }, text: 'Got both.' }]);
  const common = ['exec', '-i', 'STREAM-JSON', '-o', 'Stream-Json', '--provider', 'scripted', '--script', script];
  const piped = await zeroHere(common, { stdin: jsonl });
  t.equal(piped.code, 0, piped.stdout);
  t.same(eventTypes(jsonLines(piped.stdout)), ['run_start', 'text', 'final', 'run_end']);
  const fromFile = await zeroHere([...common, '-C', dir, '--file', 'turns.jsonl'], { stdin: 'ignored: --file wins' });
  t.equal(fromFile.code, 0, fromFile.stdout);
});

t.test('text prompt: the words, then the file, joined by a blank line; stdin is not read', async (t) => {
  const dir = t.testdir({ 'prompt.md': 'From the file.\n' });
  const script = writeScript(dir, [{ expect: { contains: ['Review this\n\nFrom the file.'] }, text: 'ok' }]);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '-f', 'prompt.md', 'Review', 'this']);
  t.equal(result.code, 0, result.stdout);
});

t.test('ZERO_PROVIDER and ZERO_SCRIPT configure the scripted provider', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ text: 'from env' }]);
  const result = await zeroHere(['exec', 'hi'], { env: cleanEnv({ ZERO_PROVIDER: 'scripted', ZERO_SCRIPT: script }) });
  t.equal(result.code, 0);
  t.equal(result.stdout, 'from env\n');
});

t.test('the three output formats of one run', async (t) => {
  const dir = t.testdir({ 'a.txt': 'alpha\n' });
  const script = writeScript(dir, [
    { chunks: ['Reading.'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' } }], usage: { promptTokens: 1, completionTokens: 2 } },
    { text: 'It says alpha.' },
  ]);
  const run = (format: string) => zeroHere(['exec', '-o', format, '--provider', 'scripted', '--script', script, '-C', dir, 'go']);

  const text = await run('text');
  t.equal(text.code, 0);
  t.equal(text.stdout, 'Reading.\nIt says alpha.\n');
  t.equal(text.stderr, '[tool] read_file a.txt\n[ok] 1 line\n');

  const json = await run('json');
  const lines = jsonLines(json.stdout);
  t.same(eventTypes(lines), ['run_start', 'text', 'usage', 'tool_call', 'tool_result', 'text', 'final', 'done']);
  t.match(lines[0], { cwd: dir, provider: 'scripted', model: 'scripted', run_id: /^run_/ });
  t.match(nth(lines, 'tool_call'), { id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' });
  t.match(nth(lines, 'tool_result'), { tool_call_id: 'c1', result: '     1\talpha' });
  t.equal(streamedText(lines), 'Reading.It says alpha.');
  t.same(lines.at(-1), { type: 'done', exit_code: 0 });
  t.equal(json.stderr, '');

  const streamJson = await run('stream-json');
  t.same(eventTypes(jsonLines(streamJson.stdout)), ['run_start', 'text', 'usage', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
});

t.test('text format: errors go to stderr and the exit code still tells', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ chunks: ['partial'], error: { message: 'boom' } }]);
  const result = await zeroHere(['exec', '--provider', 'scripted', '--script', script, 'go']);
  t.equal(result.code, 3);
  t.equal(result.stdout, 'partial\n');
  t.match(result.stderr, /^\[zero\] Scripted provider failed at turn 1: boom\n$/);
});

t.test('secrets never reach stdout', async (t) => {
  const key = ['sk-proj-', 'Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz'].join('');
  const loaded = 'plain-looking-credential-42';
  const dir = t.testdir({ '.env': `OPENAI_API_KEY=${loaded}\n` });
  const script = writeScript(dir, [{ chunks: [`The key is ${key}.`], toolCalls: [{ name: 'read_file', args: { path: '.env' } }] }, { text: 'done' }]);
  for (const format of ['stream-json', 'json', 'text']) {
    const result = await zeroHere(['exec', '-o', format, '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env: cleanEnv({ OPENAI_API_KEY: loaded }) });
    t.equal(result.code, 0, format);
    t.notMatch(result.stdout + result.stderr, key, `${format}: the pattern-matched key is redacted`);
    t.notMatch(result.stdout + result.stderr, loaded, `${format}: the loaded credential is redacted`);
    t.match(result.stdout + result.stderr, '[REDACTED]');
  }
});

t.test('a key split across deltas after 1,100 characters of compact JSON (issue 11) reaches neither stdout nor the session', async (t) => {
  const key = ['sk-proj-', 'Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt'].join('');
  const home = t.testdir();
  const script = writeScript(home, [{ chunks: [`{"c":"${'x'.repeat(1100)}","key":"${key.slice(0, 12)}`, `${key.slice(12)}"}`] }]);
  const fragments = Array.from({ length: key.length - 7 }, (_, at) => key.slice(at, at + 8));
  for (const format of ['text', 'stream-json']) {
    const result = await zeroHere(['exec', '-o', format, '--provider', 'scripted', '--script', script, 'hi'], { env: cleanEnv({ ZERO_HOME: home }) });
    t.equal(result.code, 0, result.stderr);
    t.same(fragments.filter((fragment) => result.stdout.includes(fragment) || result.stderr.includes(fragment)), [], `${format}: no fragment of the key printed`);
    const text = format === 'text' ? result.stdout : streamedText(jsonLines(result.stdout));
    t.ok(text.endsWith(`"key":"[REDACTED]"}\n`) || text.endsWith(`"key":"[REDACTED]"}`), `${format}: the key is redacted in place`);
  }
  const recorded = readdirSync(home, { recursive: true, encoding: 'utf8' }).filter((path) => path !== 'script.jsonl' && statSync(join(home, path)).isFile());
  t.ok(recorded.some((path) => path.endsWith('events.jsonl')), 'the runs were recorded');
  t.same(recorded.filter((path) => fragments.some((fragment) => readFileSync(join(home, path), 'utf8').includes(fragment))), [], 'no recorded file holds a fragment');
});

t.test('the prompt from stdin: piped with no prompt words, or -f -', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ expect: { contains: ['fix the test'] }, text: 'Fixed.' }]);
  const exec = (args: string[], stdin: string) => zeroHere(['exec', '--provider', 'scripted', '--script', script, '-C', dir, ...args], { stdin });
  const piped = await exec([], 'fix the test\n');
  t.same([piped.code, piped.stdout], [0, 'Fixed.\n'], 'echo "fix the test" | zero exec');
  const dash = await exec(['-f', '-'], 'fix the test');
  t.same([dash.code, dash.stdout], [0, 'Fixed.\n'], 'zero exec -f -');
  const both = await exec(['-f', '-', 'Please'], 'fix the test');
  t.equal(both.code, 0, 'words and stdin together, as words and a --file are');
  const ignored = await exec(['fix the test'], 'not this');
  t.equal(ignored.code, 0, 'with prompt words, stdin is left alone');
  const empty = await exec([], '');
  t.equal(empty.code, 2);
  t.equal(empty.stderr, '[zero] No prompt given. Pass it as arguments, with --file PATH, or on stdin (echo "…" | zero exec).\n');
});

t.test('-i stream-json -f - reads the JSONL input from stdin, as without -f', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ expect: { contains: ['from stdin'] }, text: 'ok' }]);
  const result = await zero(['exec', '-i', 'stream-json', '-o', 'stream-json', '-f', '-', '--provider', 'scripted', '--script', script, '-C', dir], { stdin: '{"schemaVersion":1,"type":"prompt","content":"from stdin"}\n' });
  t.equal(result.code, 0, result.stdout);
  t.equal(streamedText(jsonLines(result.stdout)), 'ok');
});
