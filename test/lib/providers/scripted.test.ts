import t from 'tap';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { CancelledError } from '../../../lib/errors.js';
import { join } from 'node:path';
import { MAX_SCRIPT_BYTES, ScriptedProvider, loadScript, type ScriptTurn } from '../../../lib/providers/scripted.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { ProviderChunk } from '../../../lib/providers/types.js';

async function turn(provider: ScriptedProvider, messages: ChatMessage[] = [{ role: 'user', content: 'hi' }], signal = new AbortController().signal) {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of provider.turn({ messages, tools: [] }, signal)) chunks.push(chunk);
  return chunks;
}

t.test('plays each turn in order: chunks, tool calls with ids, usage', async (t) => {
  const provider = new ScriptedProvider([
    { chunks: ['a', 'b'], toolCalls: [{ id: 'mine', name: 'x', args: {} }, { name: 'y', args: { k: 1 } }], usage: { promptTokens: 1 } },
    { text: 'whole' },
  ]);
  t.same(await turn(provider), [
    { type: 'text', delta: 'a' },
    { type: 'text', delta: 'b' },
    { type: 'tool_call', id: 'mine', name: 'x', args: {} },
    { type: 'tool_call', id: 'call_1_2', name: 'y', args: { k: 1 } },
    { type: 'usage', promptTokens: 1 },
  ]);
  t.same(await turn(provider), [{ type: 'text', delta: 'whole' }]);
  t.equal(provider.handedOut, 6);
  await t.rejects(turn(provider), { code: 'provider_error', message: 'Scripted provider has no turn 3: the script has 2 turn(s).' });
});

t.test('model: --model or "scripted"', async (t) => {
  t.equal(new ScriptedProvider([]).model, 'scripted');
  t.equal(new ScriptedProvider([], { model: 'gpt-test' }).model, 'gpt-test');
  t.equal(new ScriptedProvider([]).name, 'scripted');
});

t.test('an error turn fails after its chunks', async (t) => {
  const provider = new ScriptedProvider([{ chunks: ['so far'], error: { message: 'rate limited', status: 429 } }]);
  const seen: ProviderChunk[] = [];
  await t.rejects(
    (async () => {
      for await (const chunk of provider.turn({ messages: [], tools: [] }, new AbortController().signal)) seen.push(chunk);
    })(),
    { code: 'provider_error', exitCode: 3, message: 'Scripted provider failed at turn 1 (HTTP 429): rate limited' },
  );
  t.same(seen, [{ type: 'text', delta: 'so far' }]);
});

t.test('expect.contains looks through everything the model receives', async (t) => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'the prompt' },
    { role: 'assistant', content: 'earlier answer', toolCalls: [{ id: 'c', name: 'grep', args: { pattern: 'TODO' } }] },
    { role: 'tool', toolCallId: 'c', name: 'grep', content: 'a.ts:3:TODO fix', isError: false },
  ];
  const ok: ScriptTurn = { expect: { contains: ['the prompt', 'earlier answer', 'grep', '"pattern":"TODO"', 'a.ts:3:TODO fix'] }, text: 'ok' };
  t.same(await turn(new ScriptedProvider([ok]), messages), [{ type: 'text', delta: 'ok' }]);
  const missing = new ScriptedProvider([{ expect: { contains: ['never said'] }, text: 'x' }]);
  await t.rejects(turn(missing, messages), { code: 'provider_error', message: 'Scripted turn 1 expected the conversation to contain "never said", but it does not.' });
});

t.test('delayMs waits before each chunk, and an abort stops the wait', async (t) => {
  const delayMs = 1000;
  const provider = new ScriptedProvider([{ chunks: ['a', 'b', 'c'], delayMs }]);
  const controller = new AbortController();
  const chunks: ProviderChunk[] = [];
  const started = performance.now();
  let abortedAt = 0;
  await t.rejects(async () => {
    for await (const chunk of provider.turn({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, controller.signal)) {
      chunks.push(chunk);
      abortedAt = performance.now();
      controller.abort(new Error('stop'));
    }
  });
  t.ok(abortedAt - started >= delayMs - 2, 'the first chunk waited out its delay');
  // A wait the abort did not cut short would last the whole next delay.
  t.ok(performance.now() - abortedAt < delayMs / 2, 'the wait for the next chunk ended at the abort');
  t.same(chunks, [{ type: 'text', delta: 'a' }]);
  t.equal(provider.handedOut, 1);
});

t.test('loadScript: JSONL, blank lines and CRLF allowed', async (t) => {
  const dir = t.testdir({ 'ok.jsonl': '{"text":"one"}\r\n\n{"chunks":["t","wo"],"delayMs":0}\n' });
  t.same(await loadScript(join(dir, 'ok.jsonl')), [{ text: 'one' }, { chunks: ['t', 'wo'], delayMs: 0 }]);
});

t.test('loadScript: problems are usage errors naming the file and line', async (t) => {
  const dir = t.testdir({});
  const cases: [string, RegExp][] = [
    ['{"text":"ok"}\nnot json\n', /at line 2: expected a JSON object\.$/],
    ['{"text":"ok","mood":"happy"}\n', /at line 1: mood: Unrecognized key: "mood"$/],
    ['{"toolCalls":[{"name":"x"}]}\n', /at line 1: toolCalls\[0\]\.args: Required field is missing$/],
    ['{"error":{"status":500}}\n', /at line 1: error\.message: Required field is missing$/],
    ['{"delayMs":-1}\n', /at line 1: delayMs: Must be at least 0, received -1$/],
    // A timer cannot wait 2^31 ms: it would fire after 1 ms instead.
    ['{"delayMs":2147483648}\n', /at line 1: delayMs: must be <= 2147483647$/],
  ];
  for (const [index, [source, message]] of cases.entries()) {
    const path = join(dir, `bad${index}.jsonl`);
    writeFileSync(path, source);
    await t.rejects(loadScript(path), { code: 'usage_error', message: new RegExp(`^Invalid script ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${message.source}`) });
  }
  await t.rejects(loadScript(join(dir, 'absent.jsonl')), { code: 'usage_error', message: /^Cannot read the script .*absent\.jsonl: ENOENT \(No such file or directory\)$/ });
});

t.test('loadScript: a FIFO (as `<(cmd)` gives) is read as a stream, whenever its writer comes', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'script.fifo');
  execFileSync('mkfifo', [fifo]);
  const loading = loadScript(fifo);
  const writer = await open(fifo, 'w'); // opens once the script is open to be read: a writer coming later is fine
  await writer.writeFile('{"text":"from a pipe"}\n');
  await writer.close();
  t.same(await loading, [{ text: 'from a pipe' }]);
});

t.test('loadScript is bounded as it reads: /dev/zero fails at its first line, an endless script at maxBytes', { skip: process.platform === 'win32' }, async (t) => {
  await t.rejects(loadScript('/dev/zero', { maxLineBytes: 1 << 20 }), { code: 'usage_error', message: 'Invalid script /dev/zero at line 1: the line is longer than 1048576 bytes (--max-line-bytes).' });
  const dir = t.testdir({});
  const fifo = join(dir, 'endless.fifo');
  execFileSync('mkfifo', [fifo]);
  const loading = loadScript(fifo, { maxBytes: 1 << 20 });
  const writer = await open(fifo, 'w');
  const line = Buffer.from('{"text":"again"}\n'.repeat(4096));
  const writing = (async () => {
    // Writes until the reader has gone (EPIPE): more than the limit, less than the whole of an endless script.
    try {
      for (let written = 0; written < 64 << 20; written += line.length) await writer.write(line);
    } catch {
      // the reader closed the pipe at the limit
    } finally {
      await writer.close();
    }
  })();
  await t.rejects(loading, { code: 'usage_error', message: `The script ${fifo} is longer than 1048576 bytes, the most a script may hold.` });
  await writing;
  t.equal(MAX_SCRIPT_BYTES, 64 * 1024 * 1024, 'the default');
});

t.test('loadScript: a directory is a usage error; an abort stops a read that waits for a writer', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({ sub: {} });
  await t.rejects(loadScript(join(dir, 'sub')), { code: 'usage_error', message: /^Cannot read the script .*sub: EISDIR \(Illegal operation on a directory\)$/ });
  const fifo = join(dir, 'silent.fifo');
  execFileSync('mkfifo', [fifo]);
  const controller = new AbortController();
  const loading = loadScript(fifo, { signal: controller.signal });
  setTimeout(() => controller.abort(new CancelledError('SIGTERM')), 50);
  await t.rejects(loading, { code: 'cancelled', message: 'Cancelled by SIGTERM.' });
});

t.test('reasoning: streamed before the turn\'s text, as reasoning chunks', async (t) => {
  const provider = new ScriptedProvider([{ reasoning: ['Think', 'ing.'], chunks: ['An', 'swer'] }]);
  t.same(await turn(provider), [
    { type: 'reasoning', delta: 'Think' },
    { type: 'reasoning', delta: 'ing.' },
    { type: 'text', delta: 'An' },
    { type: 'text', delta: 'swer' },
  ]);
});

t.test('expect.images counts the images the conversation holds at this turn', async (t) => {
  const image = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
  const messages: ChatMessage[] = [
    { role: 'user', content: 'first', images: [image, image] },
    { role: 'assistant', content: 'ok', toolCalls: [] },
    { role: 'user', content: '', images: [image] },
  ];
  t.ok(new ScriptedProvider([]).acceptsImages, 'the scripted provider takes images');
  t.same(await turn(new ScriptedProvider([{ expect: { images: 3 }, text: 'three' }]), messages), [{ type: 'text', delta: 'three' }]);
  await t.rejects(turn(new ScriptedProvider([{ expect: { images: 1 }, text: 'x' }]), messages), {
    code: 'provider_error',
    message: 'Scripted turn 1 expected 1 image(s) in the conversation, but it holds 3.',
  });
  await t.rejects(turn(new ScriptedProvider([{ expect: { images: 1 }, text: 'x' }])), { message: /expected 1 image\(s\) in the conversation, but it holds 0/ }, 'none at all');
});

t.test('a script may use reasoning and expect.images; an empty expect is refused', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'script.jsonl');
  writeFileSync(path, '{"reasoning":["hm"],"text":"ok","expect":{"images":2}}\n');
  t.same(await loadScript(path), [{ reasoning: ['hm'], text: 'ok', expect: { images: 2 } }]);
  writeFileSync(path, '{"text":"ok","expect":{}}\n');
  await t.rejects(loadScript(path), { code: 'usage_error', message: /line 1: expect\.contains: Required field is missing/ });
  writeFileSync(path, '{"text":"ok","expect":{"images":-1}}\n');
  await t.rejects(loadScript(path), { code: 'usage_error', message: /line 1: expect\.images: Must be at least 0/ });
});

t.test('turns given to the constructor are checked as a script file\'s lines are: a TypeError names the turn and the field', async (t) => {
  t.throws(() => new ScriptedProvider('x' as never), new TypeError('ScriptedProvider: turns must be an array of script turns, not a string.'));
  t.throws(() => new ScriptedProvider([{ text: 'ok' }, { bogus: 1 } as never]), { name: 'TypeError', message: /^ScriptedProvider: turns\[1\] is not a script turn: bogus: / });
  t.throws(() => new ScriptedProvider([{ chunks: 'abc' } as never]), { name: 'TypeError', message: /^ScriptedProvider: turns\[0\] is not a script turn: chunks: / });
  t.doesNotThrow(() => new ScriptedProvider([{ text: 'ok' }, { toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a' } }] }]));
});
