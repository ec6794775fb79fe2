import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { settled } from '../../helpers/timing.js';
import { fakeApi } from '../../helpers/sse-server.js';
import { anthropicStream, openaiStream } from '../../helpers/wire.js';
import { converse, kinds, oneAfterAnother, say, turnText } from '../../helpers/conversation.js';
import { ZERO, cleanEnv } from '../../helpers/zero.js';

// zero exec --multi-turn against the loopback provider servers: the OpenAI and Anthropic wires, one request per
// model turn, each holding the conversation so far.

const ANTHROPIC_KEY = ['sk-ant-api03-', 'T3stKeyT3stKeyC0nv3rs4t10n0123'].join('');

t.test('openai over the wire: each turn is one request holding the whole conversation so far', async (t) => {
  const api = await fakeApi([{ sse: openaiStream({ text: ['Hello, Ada.'] }) }, { sse: openaiStream({ text: ['You are Ada.'] }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir({});
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-test-conversation-0000000000', OPENAI_BASE_URL: `${api.url}/v1`, ZERO_HOME: join(dir, '.home') });
  const { start, onEvent } = oneAfterAnother(['I am Ada.', 'Who am I?']);
  const result = await converse(['-o', 'stream-json', '--provider', 'openai', '-C', dir], start, onEvent, { env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.equal(api.received.length, 2);
  const messages = api.received[1]!.body.messages.filter((message: { role: string }) => message.role !== 'system');
  t.match(messages, [{ role: 'user', content: 'I am Ada.' }, { role: 'assistant', content: 'Hello, Ada.' }, { role: 'user', content: 'Who am I?' }]);
});

t.test('anthropic over the wire: an interrupt mid-stream aborts the request; the next turn sends the partial answer; a tool is asked for and denied', async (t) => {
  // the first answer stalls after its first words: only the interrupt ends that turn
  const stalled = anthropicStream({ text: ['Let me think', ' about it at length.'] });
  const api = await fakeApi([
    { sse: stalled, stall: 4 },
    { sse: anthropicStream({ text: ['I will write it.'], toolCalls: [{ id: 'toolu_01', name: 'write_file', args: '{"path":"a.md","content":"a"}' }] }) },
    { sse: anthropicStream({ text: ['Not written.'] }) },
  ]);
  t.teardown(() => api.close());
  const dir = t.testdir({});
  const env = cleanEnv({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: api.url, ZERO_HOME: join(dir, '.home') });
  let interrupted = false;
  // in the read-only sandbox --auto low does not allow writes: the write is asked for
  const result = await converse(['-o', 'stream-json', '--provider', 'anthropic', '--permission-prompt', 'stdio', '--sandbox', 'read-only', '--disabled-tools', 'bash', '-C', dir], (client) => client.send(say('Think.')), (event, client) => {
    if (event.type === 'text' && !interrupted) {
      interrupted = true;
      client.send({ type: 'interrupt' });
    }
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, decision: 'deny' });
    if (event.type === 'turn_end' && event.turn === 1) client.send(say('Write a.md.'));
    if (event.type === 'turn_end' && event.turn === 2) client.end();
  }, { env, version: 2 });
  t.equal(result.code, 0, result.stderr);
  t.same(result.problems, []);
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'interrupted' }, { turn: 2, status: 'success' }]);
  t.equal(turnText(result.events, 1), 'Let me think');
  t.same(kinds(result.events).filter((type) => String(type).startsWith('permission') || String(type).startsWith('tool')), ['tool_call', 'permission_request', 'permission_decision', 'tool_result']);
  t.equal(api.received.length, 3, 'one request per model turn');
  t.match(api.received[1]!.body.messages, [{ role: 'user' }, { role: 'assistant', content: [{ type: 'text', text: 'Let me think' }] }, { role: 'user' }]);
  t.match(JSON.stringify(api.received[2]!.body.messages.at(-1)), /tool_result.*denied permission/);
});

t.test('a slow reader: while stdout is not read, zero stops reading the API mid-turn; once read again, the whole turn comes', async (t) => {
  const pieces = Array.from({ length: 20000 }, (_, i) => `piece ${i} ${'x'.repeat(1000)}\n`);
  const api = await fakeApi([{ sse: openaiStream({ text: pieces }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir({});
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-test-conversation-0000000000', OPENAI_BASE_URL: `${api.url}/v1`, ZERO_HOME: join(dir, '.home') });
  const child = spawn(process.execPath, [ZERO, 'exec', '-i', 'stream-json', '-o', 'stream-json', '--multi-turn', '--provider', 'openai', '-C', dir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.pause();
  child.stdin.end(`${JSON.stringify({ schemaVersion: 1, type: 'message', role: 'user', content: 'Say a lot.' })}\n`);
  while (api.framesWritten() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const paused = await settled(api.framesWritten, 200);
  t.ok(paused < pieces.length, `the API got ${paused} of ${pieces.length + 3} frames out while nobody read`);
  let text = 0;
  let last: Record<string, unknown> | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    last = JSON.parse(line) as Record<string, unknown>;
    if (last.type === 'text') text += String(last.delta).length;
  }
  t.equal(text, pieces.join('').length, 'every piece arrived');
  t.match(last, { type: 'run_end', status: 'success' });
});
