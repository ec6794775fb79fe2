import t, { type Test } from 'tap';
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createLogChecker } from '../../../lib/logs/validate.js';
import { zeroHere } from '../../helpers/cli.js';
import { fakeApi, type FakeApi, type Reply } from '../../helpers/sse-server.js';
import { anthropicStream, openaiStream } from '../../helpers/wire.js';
import { ZERO, cleanEnv, jsonLines, nth, streamedText, tempDir, writeScript, zero, type Result } from '../../helpers/zero.js';

// A client written for Zero's current stream-json (schema version 2) driving zero exec end to end:
// its version 2 input sets the output version, images go in, reasoning comes out, a refused write is a
// permission_request, the turn limit and signals end as version 2 says; every line is a valid version 2 event.
// Runs are in-process (zeroHere); bin/zero is spawned for the signals and the terminal.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const image = { mediaType: 'image/png', data: PNG };

const v2 = (event: object) => JSON.stringify({ schemaVersion: 2, ...event });
const v2Input = (...events: object[]) => events.map(v2).join('\n') + '\n';
const message = (content: string, images?: object[]) => ({ type: 'message', role: 'user', content, ...(images ? { images } : {}) });
const prompt = (content: string) => ({ type: 'prompt', content });

/** Every line of the output is a valid event of its version, in the protocol's order (what zero validate checks). */
export function assertValidRun(t: Test, stdout: string, version: 1 | 2): Record<string, unknown>[] {
  const checker = createLogChecker('output');
  const events = jsonLines(stdout);
  const problems = [...events.flatMap((value, index) => checker.item({ value, lineNo: index + 1 })), ...checker.end()];
  t.same(problems, [], `every line is a valid version ${version} event, in order`);
  t.ok(events.length > 0 && events.every((event) => event.schemaVersion === version), `every line says schemaVersion ${version}`);
  return events;
}

type Scripted = {
  dir: string;
  script: string;
  env: NodeJS.ProcessEnv;
  exec(args: string[], stdin?: string): Promise<Result>;
  /** The run in a process of its own, for a test that signals it. */
  spawn(args: string[], stdin: string, onSpawn: (child: ChildProcess) => void): Promise<Result>;
};

function scripted(t: Test, turns: unknown[], files: Record<string, string> = {}): Scripted {
  const dir = t.testdir(files);
  const script = writeScript(dir, turns, '.script.jsonl');
  const env = cleanEnv({ ZERO_HOME: join(dir, '.home') });
  const argv = (args: string[]) => ['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...args];
  return {
    dir,
    script,
    env,
    exec: (args, stdin) => zeroHere(argv(args), { env, stdin }),
    spawn: (args, stdin, onSpawn) => zero(argv(args), { env, stdin, onSpawn }),
  };
}

/** The event types in order, consecutive deltas of one kind counted once: redaction may re-split them. */
const kinds = (events: Record<string, unknown>[]) => events.map((event) => event.type).filter((type, index, all) => !((type === 'text' || type === 'reasoning') && all[index - 1] === type));

const writeNotes = { id: 'w1', name: 'write_file', args: { path: 'NOTES.md', content: 'seen\n' } };
/** A write --auto low refuses: inside the workspace, but in .zero, which holds what runs later outside any sandbox. */
const refusedWrite = { ...writeNotes, args: { ...writeNotes.args, path: '.zero/NOTES.md' } };

t.test('scripted: images in, reasoning out, a refused write, in version 2 because the input is; resume sends the images again', async (t) => {
  const run = scripted(t, [
    { expect: { images: 1, contains: ['What is in the picture?'] }, reasoning: ['A one-pixel ', 'PNG.'], chunks: ['Let me note it.'], toolCalls: [refusedWrite], usage: { promptTokens: 30, completionTokens: 9 } },
    { expect: { contains: ['Permission required'] }, text: 'I may not write files here: a single pixel.' },
  ]);
  const first = await run.exec(['-i', 'stream-json'], v2Input(message('What is in the picture?', [image]), prompt('Be brief.')));
  t.equal(first.code, 0);
  t.equal(first.stderr, '');
  const events = assertValidRun(t, first.stdout, 2);
  t.same(kinds(events), ['run_start', 'reasoning', 'text', 'usage', 'tool_call', 'permission_request', 'tool_result', 'text', 'final', 'run_end']);
  t.equal(events.filter((event) => event.type === 'reasoning').map((event) => event.delta).join(''), 'A one-pixel PNG.');
  t.notMatch(streamedText(events), /PNG/, 'reasoning is never part of the text');
  t.match(nth(events, 'permission_request'), { id: 'w1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'auto', sideEffect: 'write', reason: /^Permission required: write_file would change \.zero\/NOTES\.md/ });
  t.match(nth(events, 'tool_result'), { id: 'w1', name: 'write_file', status: 'error', output: /--auto high/ });
  t.notOk(existsSync(join(run.dir, '.zero')), 'the refused write changed nothing');
  t.match(nth(events, 'final'), { text: 'I may not write files here: a single pixel.' });

  const sessionId = String(events[0]?.sessionId);
  writeScript(run.dir, [{ expect: { images: 1, contains: ['And its colour?'] }, text: 'Mostly transparent.' }], '.script.jsonl');
  const resumed = await run.exec(['-i', 'stream-json', '--resume', sessionId], v2Input(prompt('And its colour?')));
  t.equal(resumed.code, 0, 'the resumed conversation holds the first run\'s image (expect.images: 1)');
  t.match(nth(assertValidRun(t, resumed.stdout, 2), 'final'), { text: 'Mostly transparent.' });
});

t.test('scripted: --auto high writes with a checkpoint first and changedFiles; a path outside is refused with its block', async (t) => {
  const run = scripted(t, [
    { toolCalls: [writeNotes, { id: 'w2', name: 'write_file', args: { path: '../outside.md', content: 'x' } }] },
    { text: 'Wrote one of two.' },
  ]);
  const v1run = await run.exec(['--auto', 'high', 'note it']);
  t.equal(v1run.code, 0);
  t.same(kinds(assertValidRun(t, v1run.stdout, 1)), ['run_start', 'warning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'text', 'final', 'run_end'], 'text input, no version asked: version 1, as before');
  const v2run = await run.exec(['--auto', 'high', '--schema-version', '2', 'note it']);
  const events = assertValidRun(t, v2run.stdout, 2);
  t.same(kinds(events), ['run_start', 'warning', 'tool_call', 'checkpoint', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'text', 'final', 'run_end']);
  t.match(nth(events, 'checkpoint'), { checkpoint: { sequence: 1, tool: 'write_file', files: ['NOTES.md'] } });
  t.match(nth(events, 'tool_result'), { id: 'w1', name: 'write_file', status: 'ok', changedFiles: ['NOTES.md'] });
  t.match(nth(events, 'permission_request'), { id: 'w2', permissionMode: 'unsafe', block: { code: 'outside_workspace', toolName: 'write_file', path: '../outside.md', recoverable: true } });
  t.match(nth(events, 'tool_result', 1), { id: 'w2', name: 'write_file', status: 'error' });
});

t.test('scripted: a write through a symlink that leads out is refused with symlink_traversal; a disabled tool gets no permission_request', async (t) => {
  const run = scripted(t, [
    { toolCalls: [{ id: 's1', name: 'write_file', args: { path: 'link/escape.md', content: 'x' } }, { id: 'b1', name: 'bash', args: { command: 'true' } }] },
    { text: 'Neither.' },
  ]);
  const outside = tempDir(t);
  symlinkSync(outside, join(run.dir, 'link'));
  const result = await run.exec(['--auto', 'high', '--disabled-tools', 'bash', '--schema-version', '2', 'go']);
  const events = assertValidRun(t, result.stdout, 2);
  t.same(kinds(events), ['run_start', 'warning', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.match(nth(events, 'permission_request'), { id: 's1', block: { code: 'symlink_traversal', path: 'link/escape.md', recoverable: false } });
  t.match(nth(events, 'tool_result', 1), { id: 'b1', name: 'bash', status: 'error', output: 'Tool bash is disabled by --disabled-tools.' });
  t.same(readdirSync(outside), [], 'nothing was written outside');
});

t.test('scripted: the turn limit ends as incomplete, exit 4, after the final', async (t) => {
  const run = scripted(t, [{ chunks: ['Let me read it.'], toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'README.md' } }] }, { expect: { contains: ['tool-turn limit'] }, text: 'It is a README.' }], { 'README.md': '# project\n' });
  const result = await run.exec(['-i', 'stream-json', '--max-turns', '1'], v2Input(prompt('Read the README.')));
  t.equal(result.code, 4);
  const events = assertValidRun(t, result.stdout, 2);
  t.same(kinds(events).slice(-5), ['tool_result', 'text', 'final', 'error', 'run_end']);
  t.match(events.slice(-3), [
    { type: 'final', text: 'It is a README.' },
    { type: 'error', code: 'incomplete', message: 'Reached the turn limit (1) before the model finished. Raise it with --max-turns.', recoverable: false },
    { type: 'run_end', status: 'incomplete', exitCode: 4 },
  ]);
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  t.test(`scripted: ${signal} mid-stream ends as interrupted, exit 130, with what was streamed before it`, async (t) => {
    const run = scripted(t, [{ reasoning: ['Reading ', 'the ', 'tests ', 'first'], chunks: ['never'], delayMs: 400 }]);
    const kill = (child: ChildProcess) => child.stdout!.on('data', (chunk: Buffer) => void (chunk.includes('"reasoning"') && child.kill(signal)));
    const result = await run.spawn(['-i', 'stream-json'], v2Input(prompt('Go.')), kill);
    t.equal(result.code, 130);
    const events = assertValidRun(t, result.stdout, 2);
    t.same(kinds(events), ['run_start', 'reasoning', 'error', 'run_end']);
    t.match(events.slice(-2), [
      { type: 'error', code: 'interrupted', message: 'run cancelled by signal', recoverable: false },
      { type: 'run_end', status: 'interrupted', exitCode: 130 },
    ]);
  });
}

t.test('the version: --schema-version > ZERO_SCHEMA_VERSION > the input events\' > 1', async (t) => {
  const run = scripted(t, [{ reasoning: ['hm'], text: 'ok' }]);
  const versionOf = (result: Result) => jsonLines(result.stdout).map((event) => event.schemaVersion);
  const v1Input = JSON.stringify({ schemaVersion: 1, type: 'prompt', content: 'hi' }) + '\n';

  const asked = await run.exec(['-i', 'stream-json', '--schema-version', '1'], v2Input(prompt('hi')));
  t.same(kinds(assertValidRun(t, asked.stdout, 1)), ['run_start', 'text', 'final', 'run_end'], 'version 2 input, version 1 asked: version 1, reasoning dropped');
  t.same(new Set(versionOf(await run.exec(['-i', 'stream-json'], v1Input))), new Set([1]), 'version 1 input: version 1');
  t.same(new Set(versionOf(await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', run.script, '-C', run.dir, 'hi'], { env: { ...run.env, ZERO_SCHEMA_VERSION: '2' } }))), new Set([2]), 'ZERO_SCHEMA_VERSION=2 with text input');
  const flagWins = await zeroHere(['exec', '-i', 'stream-json', '-o', 'stream-json', '--schema-version', '2', '--provider', 'scripted', '--script', run.script, '-C', run.dir], { env: { ...run.env, ZERO_SCHEMA_VERSION: '1' }, stdin: v1Input });
  assertValidRun(t, flagWins.stdout, 2);
  t.same(kinds(jsonLines(flagWins.stdout)), ['run_start', 'reasoning', 'text', 'final', 'run_end'], 'the flag wins over the variable and the input');
});

t.test('version usage errors: a bad version, and failures before the start in the version asked for', async (t) => {
  const run = scripted(t, [{ text: 'unused' }]);
  const bad = await run.exec(['--schema-version', '3', 'hi']);
  t.equal(bad.code, 2);
  t.match(assertValidRun(t, bad.stdout, 1), [{ type: 'error', code: 'usage_error', message: 'Invalid value for --schema-version: "3". Expected one of: 1, 2.' }, { type: 'run_end', exitCode: 2 }]);
  const badEnv = await zeroHere(['exec', '-o', 'stream-json', 'hi'], { env: { ...run.env, ZERO_SCHEMA_VERSION: 'two' } });
  t.match(jsonLines(badEnv.stdout)[0], { code: 'usage_error', message: 'Invalid value for ZERO_SCHEMA_VERSION: "two". Expected one of: 1, 2.' });

  const badFlag = await run.exec(['--schema-version', '2', '--max-turns', 'lots', 'hi']);
  t.equal(badFlag.code, 2);
  t.match(assertValidRun(t, badFlag.stdout, 2), [{ type: 'error', code: 'usage_error', message: /--max-turns/, recoverable: false }, { type: 'run_end', status: 'error', exitCode: 2 }]);
  const badEnvValue = await zeroHere(['exec', '-o', 'stream-json', 'hi'], { env: { ...run.env, ZERO_SCHEMA_VERSION: '2', ZERO_MAX_TURNS: 'lots' } });
  t.equal(badEnvValue.code, 2);
  t.match(assertValidRun(t, badEnvValue.stdout, 2), [{ type: 'error', code: 'usage_error', message: /ZERO_MAX_TURNS/, recoverable: false }, { type: 'run_end', exitCode: 2 }], 'an env variable\'s usage error, in the version the env asks for');
  const unknownFlag = await run.exec(['--schema-version=2', '--bogus', 'hi']);
  t.match(assertValidRun(t, unknownFlag.stdout, 2), [{ type: 'error', message: /Unknown option '--bogus'/ }, { type: 'run_end', exitCode: 2 }]);
  const noProvider = await zeroHere(['exec', '-o', 'stream-json', '-i', 'stream-json'], { env: run.env, stdin: v2Input(prompt('hi')) });
  t.equal(noProvider.code, 3);
  t.match(jsonLines(noProvider.stdout)[0], { schemaVersion: 1, code: 'provider_error' }, 'a failure before the input is read knows no input version');
});

t.test('input: one version per input; images are version 2 only', async (t) => {
  const run = scripted(t, [{ text: 'unused' }]);
  const mixed = await run.exec(['-i', 'stream-json'], v2Input(prompt('first')) + JSON.stringify({ schemaVersion: 1, type: 'prompt', content: 'second' }) + '\n');
  t.equal(mixed.code, 2);
  t.match(assertValidRun(t, mixed.stdout, 2), [{ type: 'error', code: 'usage_error', message: /^Invalid stream-json input at line 2: schemaVersion: Expected 2, received 1/, recoverable: false }, { type: 'run_end', exitCode: 2 }], 'reported in the version of the input\'s first line');
  const v1Images = await run.exec(['-i', 'stream-json'], JSON.stringify({ schemaVersion: 1, ...message('look', [image]) }) + '\n');
  t.equal(v1Images.code, 2);
  t.match(jsonLines(v1Images.stdout)[0], { message: 'Invalid stream-json input at line 1: images: Unrecognized key: "images"' });
  const badImage = await run.exec(['-i', 'stream-json'], v2Input(message('look', [{ mediaType: 'image/bmp', data: PNG }])));
  t.match(jsonLines(badImage.stdout)[0], { message: 'Invalid stream-json input at line 1: images[0].mediaType: Unsupported image type "image/bmp" (expected png, jpeg, gif or webp)' });
  const noText = await run.exec(['-i', 'stream-json'], v2Input(message('')));
  t.match(jsonLines(noText.stdout)[0], { code: 'usage_error', message: /^Invalid stream-json input at line 1: content/ }, 'an empty message without images is still refused');
});

// The same client against real HTTP servers on 127.0.0.1 speaking each provider's wire format.

const OPENAI_KEY = ['sk-proj-', 'V2testKeyV2testKeyV2test0123456789'].join('');
const ANTHROPIC_KEY = ['sk-ant-api03-', 'V2testKeyV2testKeyV2test0123456789'].join('');
const writeCall = { id: 'call_w1', name: 'write_file', args: '{"path":".zero/NOTES.md","content":"a pixel\\n"}' };
const readCall = { id: 'call_r1', name: 'read_file', args: '{"path":"README.md"}' };

type Wire = {
  name: string;
  env: (api: FakeApi) => NodeJS.ProcessEnv;
  args: string[];
  /** A turn that reasons, says a little and calls the tools; a turn that answers. */
  toolTurn: (reasoning: string[], call: typeof writeCall) => Reply;
  answer: (text: string) => Reply;
  /** The images of the first user message of a request, as the server received them. */
  imagesSent: (body: any) => unknown[];
};

const WIRES: Wire[] = [
  {
    name: 'openai',
    env: (api) => ({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${api.url}/v1` }),
    args: [],
    toolTurn: (reasoning, call) => ({ sse: openaiStream({ reasoning, text: ['Noting it.'], toolCalls: [call], usage: [40, 10] }) }),
    answer: (text) => ({ sse: openaiStream({ text: [text], usage: [60, 8] }) }),
    imagesSent: (body) => (body.messages[0].content as { type: string }[]).filter((part) => part.type === 'image_url'),
  },
  {
    name: 'anthropic',
    env: (api) => ({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: api.url }),
    args: ['--reasoning-budget', '2048'],
    toolTurn: (reasoning, call) => ({ sse: anthropicStream({ thinking: [{ thinking: reasoning, signature: 'sig-v2-e2e' }], text: ['Noting it.'], toolCalls: [call], usage: [40, 10] }) }),
    answer: (text) => ({ sse: anthropicStream({ text: [text], usage: [60, 8] }) }),
    imagesSent: (body) => (body.messages[0].content as { type: string }[]).filter((part) => part.type === 'image'),
  },
];

async function overWire(t: Test, wire: Wire, replies: Reply[], args: string[], stdin: string, onSpawn?: (child: ChildProcess) => void) {
  const api = await fakeApi(replies);
  t.teardown(() => api.close());
  const dir = t.testdir({ 'README.md': '# project\n' });
  const env = cleanEnv({ ...wire.env(api), ZERO_HOME: join(dir, '.home') });
  const argv = ['exec', '-i', 'stream-json', '-o', 'stream-json', '-C', dir, ...wire.args, ...args];
  const result = await (onSpawn ? zero(argv, { env, stdin, onSpawn }) : zeroHere(argv, { env, stdin }));
  t.equal(result.stderr, '', 'stderr stays quiet in stream-json');
  return { ...result, api, dir };
}

for (const wire of WIRES) {
  t.test(`${wire.name}: images in, reasoning out, a refused write; every line valid version 2`, async (t) => {
    const { code, stdout, api, dir } = await overWire(t, wire, [wire.toolTurn(['A single ', 'pixel.'], writeCall), wire.answer('It is one pixel; I may not write notes.')], [], v2Input(message('What is this?', [image])));
    t.equal(code, 0);
    const events = assertValidRun(t, stdout, 2);
    t.same(kinds(events), ['run_start', 'reasoning', 'text', 'usage', 'tool_call', 'permission_request', 'tool_result', 'text', 'usage', 'final', 'run_end']);
    t.equal(events.filter((event) => event.type === 'reasoning').map((event) => event.delta).join(''), 'A single pixel.');
    t.match(nth(events, 'permission_request'), { id: 'call_w1', name: 'write_file', permissionMode: 'auto', sideEffect: 'write' });
    t.match(nth(events, 'tool_result'), { id: 'call_w1', name: 'write_file', status: 'error' });
    t.notOk(existsSync(join(dir, '.zero')));
    t.match(nth(events, 'final'), { text: 'It is one pixel; I may not write notes.' });
    t.equal(api.received.length, 2);
    t.equal(wire.imagesSent(api.received[0]!.body).length, 1, 'the image reached the provider in its own form');
    t.equal(wire.imagesSent(api.received[1]!.body).length, 1, 'and is in the conversation of the next request too');
    if (wire.name === 'openai') t.notMatch(JSON.stringify(api.received[1]!.body), /A single pixel/, 'reasoning is not sent back to an OpenAI-compatible server');
    else {
      t.match(api.received[0]!.body, { thinking: { type: 'enabled', budget_tokens: 2048 } });
      t.match(api.received[1]!.body.messages[1].content[0], { type: 'thinking', thinking: 'A single pixel.', signature: 'sig-v2-e2e' }, 'the thinking block goes back first, signed');
    }
  });

  t.test(`${wire.name}: the turn limit is incomplete, exit 4`, async (t) => {
    const { code, stdout, api } = await overWire(t, wire, [wire.toolTurn(['Reading.'], readCall), wire.answer('It is a README.')], ['--max-turns', '1'], v2Input(prompt('Read the README.')));
    t.equal(code, 4);
    const events = assertValidRun(t, stdout, 2);
    t.match(events.slice(-3), [{ type: 'final', text: 'It is a README.' }, { type: 'error', code: 'incomplete' }, { type: 'run_end', status: 'incomplete', exitCode: 4 }]);
    const last = api.received[1]!.body;
    t.match(JSON.stringify(last.messages.at(-1)), 'You have reached the tool-turn limit. Do not call tools.', 'the last request asks for the answer in Zero\'s words');
    t.ok(last.tools?.length, 'and still describes the tools, as Zero does');
  });

  t.test(`${wire.name}: SIGTERM while the stream stalls is interrupted, exit 130`, async (t) => {
    const stalled = wire.toolTurn(['Thinking ', 'hard'], readCall) as Extract<Reply, { sse: string[] }>;
    const reply: Reply = { ...stalled, stall: wire.name === 'openai' ? 3 : 5 };
    const kill = (child: ChildProcess) => child.stdout!.on('data', (chunk: Buffer) => void (chunk.includes('"reasoning"') && child.kill('SIGTERM')));
    const { code, stdout } = await overWire(t, wire, [reply], [], v2Input(prompt('Go.')), kill);
    t.equal(code, 130);
    const events = assertValidRun(t, stdout, 2);
    t.same(kinds(events), ['run_start', 'reasoning', 'error', 'run_end']);
    t.match(events.slice(-2), [{ type: 'error', code: 'interrupted', message: 'run cancelled by signal' }, { type: 'run_end', status: 'interrupted', exitCode: 130 }]);
  });
}

/** Runs bin/zero under a pseudo-terminal (util-linux `script`): stderr is a terminal, stdout goes to a file. */
function onTerminal(args: string[], dir: string, env: NodeJS.ProcessEnv): Promise<{ terminal: string; stdout: string }> {
  const quoted = [process.execPath, ZERO, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const out = join(dir, 'stdout.txt');
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', `${quoted} > '${out}'`, '/dev/null'], { env, cwd: dir }, (error, terminal) => (error ? reject(error) : resolve({ terminal, stdout: readFileSync(out, 'utf8') })));
  });
}

t.test('text format: reasoning on a terminal\'s stderr, dimmed, in any schema version; piped, none; never on stdout or in the session', async (t) => {
  const run = scripted(t, [{ reasoning: ['Weighing ', 'the options.'], text: 'Option B.' }]);
  const { NO_COLOR: _noColor, ...env } = run.env;
  const args = ['exec', '--provider', 'scripted', '--script', run.script, '-C', run.dir, 'Which option?'];
  // the session hint that ends a run on a terminal is not what this test is about
  const withoutHint = (screen: string) => screen.replace(/(\x1b\[2m)?\[zero\] session zero_[^\n]*\n/, '');
  const { terminal: shown, stdout } = await onTerminal(args, run.dir, env);
  const terminal = withoutHint(shown);
  t.equal(stdout, 'Option B.\n');
  t.match(terminal, /^\x1b\[2mWeighing /, 'dimmed');
  t.equal(terminal.replace(/\x1b\[2m([^\x1b]*)\x1b\[22m/g, '$1'), 'Weighing the options.\r\n', 'every piece dimmed, and the reasoning on a line of its own');
  t.match(withoutHint((await onTerminal(args, run.dir, { ...env, NO_COLOR: '1' })).terminal), /^Weighing the options\.\r?\n$/, 'NO_COLOR: plain');
  const piped = await zeroHere(args, { env });
  t.same([piped.stdout, piped.stderr], ['Option B.\n', ''], 'piped stderr: no reasoning');
  const [session] = jsonLines((await zeroHere(['sessions', 'list', '-o', 'json'], { env })).stdout);
  const stored = jsonLines((await zeroHere(['sessions', 'show', String(session?.id), '-o', 'stream-json'], { env })).stdout);
  t.notOk(stored.some((event) => event.type === 'reasoning'), 'the version 1 session holds no reasoning');
});

t.test('--reasoning-budget with a provider that has no extended thinking: a warning, and the run goes on', async (t) => {
  const run = scripted(t, [{ text: 'ok' }]);
  const result = await run.exec(['--reasoning-budget', '4096', '--schema-version', '2', 'hi']);
  t.equal(result.code, 0);
  const events = assertValidRun(t, result.stdout, 2);
  t.match(nth(events, 'warning'), { message: /^--reasoning-budget is ignored: it sets the extended thinking of the anthropic providers, and this run uses scripted/ });
  const tooSmall = await run.exec(['--reasoning-budget', '100', 'hi']);
  t.equal(tooSmall.code, 2);
  t.match(jsonLines(tooSmall.stdout)[0], { code: 'usage_error', message: /--reasoning-budget: "100"\. Expected at least 1024 tokens/ });
});

t.test('a profile whose model takes no images: a prompt with images is a usage error before the run starts', async (t) => {
  const api = await fakeApi([{ sse: openaiStream({ text: ['never'] }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir({ '.zero': { 'config.json': JSON.stringify({ activeProvider: 'local', providers: [{ name: 'local', provider_kind: 'openai-compatible', baseURL: `${api.url}/v1`, model: 'llama3.2', supportsImages: false }] }) } });
  const env = cleanEnv({ ZERO_HOME: join(dir, '.home') });
  const result = await zeroHere(['exec', '-i', 'stream-json', '-o', 'stream-json', '-C', dir], { env, stdin: v2Input(message('What is this?', [image])) });
  t.equal(result.code, 2);
  t.match(assertValidRun(t, result.stdout, 2), [
    { type: 'error', code: 'usage_error', message: 'The prompt has images, but provider openai-compatible (model llama3.2) does not take images. Send it without images, or choose a provider whose model takes them.' },
    { type: 'run_end', status: 'error', exitCode: 2 },
  ]);
  t.equal(api.received.length, 0, 'nothing was sent to the model');
  t.notOk(existsSync(join(dir, '.home', 'sessions')) && readdirSync(join(dir, '.home', 'sessions')).length > 0, 'no session was recorded');
  const withoutImages = await zeroHere(['exec', '-i', 'stream-json', '-o', 'stream-json', '-C', dir], { env, stdin: v2Input(message('Just text.')) });
  t.equal(withoutImages.code, 0, 'the same profile runs a prompt without images');
});
