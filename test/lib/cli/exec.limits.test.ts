import t, { type Test } from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { event, fakeApi, type Reply } from '../../helpers/sse-server.js';
import { anthropicStream, openaiStream } from '../../helpers/wire.js';
import { cleanEnv, eventTypes, jsonLines, nth, streamedText, writeScript, zero } from '../../helpers/zero.js';
import { zeroHere } from '../../helpers/cli.js';
import { createLogChecker } from '../../../lib/logs/validate.js';

// The run's price and limits as a CI job sees them: costUsd on every usage, --max-budget-usd, --max-tool-calls and
// --run-timeout each ending the run with one error, one run_end, exit 4 (version 2 `incomplete`), nothing lost.

/** Every line a valid event of the version, in the protocol's order (what zero validate checks). */
function assertValidRun(t: Test, stdout: string, version: 1 | 2): Record<string, unknown>[] {
  const checker = createLogChecker('output');
  const events = jsonLines(stdout);
  t.same([...events.flatMap((value, index) => checker.item({ value, lineNo: index + 1 })), ...checker.end()], [], 'a valid run');
  t.ok(events.every((e) => e.schemaVersion === version), `version ${version}`);
  return events;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * bin/zero run, and the seconds from its run_start line to its exit: the deadline counts from the run's start, so this
 * is the deadline and the time to stop, whatever the machine's load made of the process's own start-up.
 */
async function timed(argv: string[], env: NodeJS.ProcessEnv) {
  let started = 0;
  const result = await zero(argv, {
    env,
    stdin: '',
    onSpawn: (child) => child.stdout!.on('data', (chunk: string) => void (started ||= String(chunk).includes('"run_start"') ? Date.now() : 0)),
  });
  return { ...result, afterStart: (Date.now() - started) / 1000 };
}

/** zero exec with the scripted provider, in a directory of its own whose sessions are kept in it. */
async function scripted(t: Test, turns: unknown[], args: string[], options: { stdin?: string } = {}) {
  const dir = t.testdir({});
  const script = writeScript(dir, turns, '.script.jsonl');
  const env = cleanEnv({ ZERO_HOME: join(dir, '.home') });
  const argv = ['exec', '-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--provider', 'scripted', '--script', script, '-C', dir, ...args];
  const result = await zeroHere(argv, { env, stdin: options.stdin });
  return { ...result, events: jsonLines(result.stdout), dir };
}

/** The text of the session files a run recorded. */
const sessionText = (dir: string) => {
  const files: string[] = [];
  const walk = (at: string) => readdirSync(at, { withFileTypes: true }).forEach((entry) => (entry.isDirectory() ? walk(join(at, entry.name)) : files.push(join(at, entry.name))));
  walk(join(dir, '.home'));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
};

const TOOL_TURN = { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }], usage: { promptTokens: 1000, completionTokens: 500, cachedTokens: 200 } };

t.test('a table model: costUsd on each usage, from uncached input, cached input and output (gpt-4.1: $2, $0.50, $8 per MTok)', async (t) => {
  const run = await scripted(t, [TOOL_TURN, { text: 'done', usage: { promptTokens: 10, completionTokens: 5 } }], ['--model', 'gpt-4.1-2025-04-14', 'go']);
  t.equal(run.code, 0);
  t.same(run.events.filter((e) => e.type === 'usage').map((e) => e.costUsd), [0.0057, 0.00006]);
  const v2 = await scripted(t, [TOOL_TURN, { text: 'done' }], ['--model', 'gpt-4.1', '--schema-version', '2', 'go']);
  t.equal(nth(assertValidRun(t, v2.stdout, 2), 'usage')?.costUsd, 0.0057, 'version 2 carries it too');
});

t.test('a model of no known price: no costUsd, and --max-budget-usd is a usage error naming it', async (t) => {
  const run = await scripted(t, [{ text: 'done', usage: { promptTokens: 10 } }], ['--model', 'my-local-model', 'go']);
  t.notOk('costUsd' in nth(run.events, 'usage')!);
  const refused = await scripted(t, [{ text: 'done' }], ['--model', 'my-local-model', '--max-budget-usd', '1', 'go']);
  t.equal(refused.code, 2);
  t.same(eventTypes(refused.events), ['error', 'run_end']);
  t.match(nth(refused.events, 'error'), { code: 'usage_error', message: /--max-budget-usd needs the price of the model, and "my-local-model" has none/ });
  for (const bad of ['-1', 'lots', '']) t.equal((await scripted(t, [], ['--max-budget-usd', bad, 'go'])).code, 2, `--max-budget-usd ${JSON.stringify(bad)}`);
});

/** A profile of the config files pointing at the loopback server, with `pricing` when given. */
function configured(t: Test, profile: Record<string, unknown>): NodeJS.ProcessEnv {
  const dir = t.testdir({});
  mkdirSync(join(dir, 'xdg', 'zero'), { recursive: true });
  writeFileSync(join(dir, 'xdg', 'zero', 'config.json'), JSON.stringify({ activeProvider: 'gw', providers: [{ name: 'gw', apiKey: 'sk-test-not-a-real-key-1234', ...profile }] }));
  return cleanEnv({ XDG_CONFIG_HOME: join(dir, 'xdg'), ZERO_HOME: join(dir, '.home') });
}

t.test("a profile's pricing wins over the table: an OpenAI-compatible gateway's cached tokens priced as it says", async (t) => {
  const frames = openaiStream({ text: ['ok'] });
  const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, prompt_tokens_details: { cached_tokens: 400 } };
  frames.splice(-1, 0, `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [], usage })}\n\n`);
  const api = await fakeApi([{ sse: frames }]);
  t.teardown(() => api.close());
  const pricing = { inputPerMTok: 1, outputPerMTok: 4, cachedInputPerMTok: 0.25 };
  const env = configured(t, { provider: 'openai-compatible', baseURL: `${api.url}/v1`, model: 'gpt-4.1', pricing });
  const result = await zero(['exec', '-o', 'stream-json', '--schema-version', '2', '--max-budget-usd', '1', 'hi'], { env });
  t.equal(result.code, 0, result.stderr);
  t.match(nth(jsonLines(result.stdout), 'usage'), { promptTokens: 1000, completionTokens: 100, costUsd: 0.0011 });
});

t.test('Anthropic: tokens read from the cache are part of the prompt, priced as cached input (claude-haiku-4-5: $1, $0.10, $5)', async (t) => {
  const frames = anthropicStream({ model: 'claude-haiku-4-5-20251001', text: ['ok'], usage: [100, 50] });
  frames[0] = event('message_start', { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: 1 } } });
  const api = await fakeApi([{ sse: frames }]);
  t.teardown(() => api.close());
  const env = configured(t, { provider: 'anthropic-compatible', baseURL: api.url, model: 'claude-haiku-4-5' });
  const result = await zero(['exec', '-o', 'stream-json', 'hi'], { env });
  t.equal(result.code, 0, result.stderr);
  t.match(nth(jsonLines(result.stdout), 'usage'), { promptTokens: 1100, completionTokens: 50, costUsd: 0.00045 });
});

t.test('--max-budget-usd: spent, the next model call is not made; budget_exceeded, exit 4, the session recorded', async (t) => {
  const turns = [TOOL_TURN, { text: 'never asked' }];
  const run = await scripted(t, turns, ['--model', 'gpt-4.1', '--max-budget-usd', '0.005', '--schema-version', '2', 'go']);
  t.equal(run.code, 4);
  const events = assertValidRun(t, run.stdout, 2);
  t.same(eventTypes(events), ['run_start', 'warning', 'usage', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'budget_exceeded', message: 'The run spent $0.0057, its budget is $0.0050 (--max-budget-usd): no further model call was made.' });
  t.same(nth(events, 'run_end'), { ...nth(events, 'run_end'), status: 'incomplete', exitCode: 4 });
  t.match(sessionText(run.dir), /"code":"budget_exceeded"/);
  const v1 = await scripted(t, turns, ['--model', 'gpt-4.1', '--max-budget-usd', '0.005', 'go']);
  t.match(nth(v1.events, 'run_end'), { status: 'error', exitCode: 4 });
});

t.test('--max-tool-calls N: the N+1th call is neither announced nor run; budget_exceeded, exit 4', async (t) => {
  const calls = [
    { name: 'bash', args: { command: 'echo one > one.txt' } },
    { name: 'bash', args: { command: 'echo two > two.txt' } },
  ];
  const run = await scripted(t, [{ toolCalls: calls }, { text: 'never asked' }], ['--max-tool-calls', '1', 'go']);
  t.equal(run.code, 4);
  t.same(eventTypes(run.events), ['run_start', 'warning', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(run.events, 'error'), { code: 'budget_exceeded', message: /made its 1 tool call \(--max-tool-calls\)/ });
  t.same(readdirSync(run.dir).filter((name) => name.endsWith('.txt')), ['one.txt']);
});

t.test('--max-tool-calls with --multi-turn counts the calls of the whole conversation', async (t) => {
  const call = (command: string) => ({ toolCalls: [{ name: 'bash', args: { command } }] });
  const turns = [call('echo a'), { text: 'first answered' }, call('echo b'), { text: 'never asked' }];
  const input = ['first', 'second'].map((content) => JSON.stringify({ schemaVersion: 2, type: 'message', role: 'user', content })).join('\n') + '\n';
  const run = await scripted(t, turns, ['-i', 'stream-json', '--multi-turn', '--schema-version', '2', '--max-tool-calls', '1'], { stdin: input });
  t.equal(run.code, 4);
  const events = assertValidRun(t, run.stdout, 2);
  t.same(events.filter((e) => e.type === 'tool_call').length, 1);
  t.match(nth(events, 'turn_end'), { turn: 1, status: 'success' });
  t.same(events.filter((e) => e.type === 'run_end').length, 1);
  t.match(nth(events, 'error'), { code: 'budget_exceeded' });
});

t.test('--run-timeout while a tool runs: the tool is killed, its call answered, timeout, exit 4, within a second of the deadline', async (t) => {
  const turns = [{ toolCalls: [{ name: 'bash', args: { command: 'sleep 30 & echo $! > child.pid; wait' } }] }, { text: 'never asked' }];
  const dir = t.testdir({});
  const script = writeScript(dir, turns, '.script.jsonl');
  const argv = ['exec', '-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--provider', 'scripted', '--script', script, '-C', dir, '--run-timeout', '1', '--schema-version', '2', 'go'];
  const run = await timed(argv, cleanEnv({ ZERO_HOME: join(dir, '.home') }));
  t.equal(run.code, 4);
  const events = assertValidRun(t, run.stdout, 2);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'timeout', message: /--run-timeout 1/ });
  t.same(nth(events, 'run_end'), { ...nth(events, 'run_end'), status: 'incomplete', exitCode: 4 });
  // a second of deadline, a second to stop, and a second more for a loaded machine (tests run two at a time): never the tool's 30
  t.ok(run.afterStart < 3, `ended ${run.afterStart} s after run_start`);
  const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
  for (let waited = 0; waited < 2000 && isAlive(child); waited += 50) await sleep(50);
  t.notOk(isAlive(child), "the tool's child is gone");
});

t.test('--run-timeout while the model streams: the provider request is aborted, what was said is kept', async (t) => {
  const stalled: Reply = { sse: openaiStream({ text: ['Half an ans', 'wer that never ends'] }), stall: 2 };
  const api = await fakeApi([stalled]);
  t.teardown(() => api.close());
  const env = configured(t, { provider: 'openai-compatible', baseURL: `${api.url}/v1`, model: 'm' });
  const result = await timed(['exec', '-o', 'stream-json', '--run-timeout', '1', 'hi'], env);
  t.equal(result.code, 4);
  // the server never ends its stream: the deadline ends the run, within a second of it (and a second for a loaded machine)
  t.ok(result.afterStart < 3, `ended ${result.afterStart} s after run_start`);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'text', 'error', 'run_end']);
  t.equal(streamedText(events), 'Half an ans');
  t.match(nth(events, 'error'), { code: 'timeout' });
});

t.test('--run-timeout takes seconds; a bad value is a usage error', async (t) => {
  for (const bad of ['0', '-2', 'soon']) t.equal((await scripted(t, [], ['--run-timeout', bad, 'go'])).code, 2, bad);
  t.equal((await scripted(t, [], ['--max-tool-calls', 'x', 'go'])).code, 2);
});
