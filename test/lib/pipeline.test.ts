import t from 'tap';
import { Readable, Transform } from 'node:stream';
import { execChain, inputChain } from '../../lib/pipeline.js';
import { ScriptedProvider, type ScriptTurn } from '../../lib/providers/scripted.js';
import type { Provider } from '../../lib/providers/types.js';
import { checkAgainstSchema } from '../../lib/protocol/validate.js';
import { through } from '../helpers/streams.js';
import { settled } from '../helpers/timing.js';
import type { OutputEvent } from '../../lib/protocol/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRecorder } from '../../lib/sessions/recorder.js';
import { redactText } from '../../lib/redaction/index.js';

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

function events(text: string): OutputEvent[] {
  return text.trim().split('\n').map((line) => JSON.parse(line) as OutputEvent);
}

function scripted(turns: ScriptTurn[]) {
  return new ScriptedProvider(turns);
}

const streamJson = { format: 'stream-json' } as const;

t.test('inputChain: JSONL bytes in, one prompt out', async (t) => {
  const jsonl = '{"schemaVersion":1,"type":"message","role":"user","content":"Inspect."}\r\n\n{"schemaVersion":1,"type":"prompt","content":"Only blockers."}';
  t.same(await through(inputChain(), [Buffer.from(jsonl)]), [{ prompt: 'Inspect.\n\nOnly blockers.' }]);
});

t.test('execChain, text input: the whole run, ending in run_end success', async (t) => {
  const chain = execChain({ provider: scripted([{ text: 'Hi.' }]), cwd: t.testdir({}), input: { format: 'text', prompt: 'hello' }, output: streamJson });
  const out = events(await readAll(chain));
  t.same(out.map((e) => e.type), ['run_start', 'text', 'final', 'run_end']);
  t.same(out.at(-1), { schemaVersion: 1, type: 'run_end', runId: out[0]?.runId, status: 'success', exitCode: 0 });
  t.equal(await chain.exitCode, 0);
  for (const event of out) t.ok(checkAgainstSchema('output', event).ok, `${event.type} matches the output schema`);
});

t.test('execChain, stream-json input: bad input is error + run_end with no run_start', async (t) => {
  const chain = execChain({ provider: scripted([{ text: 'never' }]), cwd: t.testdir({}), input: { format: 'stream-json' }, output: streamJson });
  chain.end('{"schemaVersion":1,"type":"prompt","content":"ok"}\n{"schemaVersion":1,"type":"prompt","content":"x","extra":1}\n');
  const out = events(await readAll(chain));
  t.same(out.map((e) => e.type), ['error', 'run_end']);
  t.match(out[0], { code: 'usage_error', recoverable: true, message: 'Invalid stream-json input at line 2: extra: Unrecognized key: "extra"' });
  t.match(out[1], { status: 'error', exitCode: 2 });
  t.equal(await chain.exitCode, 2);
});

// What the failing stage itself had buffered goes down with it (a Node stream that fails drops its buffer);
// what the agent produced is never lost (see the provider-error tests).
t.test('a stage that throws yields error + run_end through the same output chain', async (t) => {
  const throwing = new Transform({
    objectMode: true,
    transform(_event, _encoding, callback) {
      callback(new Error('stage exploded'));
    },
  });
  const failures: unknown[] = [];
  const chain = execChain({
    provider: scripted([{ chunks: ['one', 'two', 'three', 'four'] }]),
    cwd: t.testdir({}),
    input: { format: 'text', prompt: 'go' },
    output: streamJson,
    stages: [throwing],
    onFailure: (error) => failures.push(error),
  });
  const out = events(await readAll(chain));
  t.same(out.map((e) => e.type), ['error', 'run_end']);
  t.match(out[0], { code: 'crash', message: 'Internal error: stage exploded', recoverable: false });
  t.match(out[1], { status: 'error', exitCode: 1 });
  t.equal(new Set(out.map((e) => e.runId)).size, 1, 'one run id throughout');
  t.equal(await chain.exitCode, 1);
  t.equal(failures.length, 1, 'the failure hook saw it (for --debug)');
});

t.test('an output stage that fails: a fresh output chain reports the crash', async (t) => {
  let writes = 0;
  const progress: string[] = [];
  const stderr = {
    write(line: string) {
      if (++writes === 1) throw new Error('stderr is broken');
      progress.push(line);
    },
  };
  const chain = execChain({
    provider: scripted([{ toolCalls: [{ name: 'list_directory', args: {} }] }, { text: 'never shown' }]),
    cwd: t.testdir({}),
    input: { format: 'text', prompt: 'go' },
    output: { format: 'text', stderr },
  });
  t.equal(await readAll(chain), '');
  t.equal(await chain.exitCode, 1);
  t.same(progress, ['[zero] Internal error: stderr is broken\n']);
});

t.test('cancel: error cancelled and run_end 130', async (t) => {
  const chain = execChain({ provider: scripted([{ chunks: ['a', 'b', 'c', 'd'], delayMs: 40 }]), cwd: t.testdir({}), input: { format: 'text', prompt: 'go' }, output: streamJson });
  setTimeout(() => chain.cancel('SIGINT'), 60);
  const out = events(await readAll(chain));
  t.same(out.slice(-2).map((e) => e.type), ['error', 'run_end']);
  t.match(out.at(-2), { code: 'cancelled', recoverable: true });
  t.match(out.at(-1), { exitCode: 130 });
  t.ok(out.filter((e) => e.type === 'text').length < 4);
});

t.test('cancel refuses what is no signal it knows nor a ZeroError, and the run goes on to its own end', async (t) => {
  const chain = execChain({ provider: scripted([{ chunks: ['a', 'b'], delayMs: 20 }]), cwd: t.testdir({}), input: { format: 'text', prompt: 'go' }, output: streamJson });
  const cancel = chain.cancel as (reason: unknown) => void;
  for (const reason of ['SIGKILL', 'sigint', undefined, {}, new Error('plain')]) {
    t.throws(() => cancel(reason), { name: 'TypeError', message: /^execChain: cancel takes 'SIGINT', 'SIGTERM', 'SIGHUP' or a ZeroError, not / });
  }
  const out = events(await readAll(chain));
  t.match(out.at(-1), { type: 'run_end', exitCode: 0 }, 'no cancel took effect');
});

t.test('execChain destroyed by its reader (a program that stops reading): the run stops, its model call too', async (t) => {
  let modelCall: AbortSignal | undefined;
  const provider: Provider = {
    name: 'slow',
    model: 'slow',
    acceptsImages: false,
    async *turn(_request, signal) {
      modelCall = signal;
      for (let i = 0; i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (signal.aborted) throw signal.reason;
        yield { type: 'text', delta: `word${i} ` };
      }
    },
  };
  const dir = t.testdir({ sessions: {}, work: {} });
  const root = join(dir, 'sessions');
  const recorder = createRecorder({ root, plan: { kind: 'new' }, cwd: '/repo', provider: 'slow', model: 'slow' });
  const { sessionId } = await recorder.begin('go');
  const chain = execChain({ provider, cwd: join(dir, 'work'), input: { format: 'text', prompt: 'go' }, output: { ...streamJson, recorder } });
  for await (const chunk of chain) if (String(chunk).includes('"type":"text"')) break;
  t.equal(await chain.exitCode, 141, 'as a run whose stdout reader went away');
  t.equal(modelCall?.aborted, true, 'the model call is cancelled');
  const stored = readFileSync(join(root, sessionId!, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.match(stored.slice(-2), [{ type: 'error', code: 'cancelled' }, { type: 'run_end', exitCode: 141 }], 'the session still ends with the run');
});

t.test('cancel while still reading stream-json input', async (t) => {
  const chain = execChain({ provider: scripted([]), cwd: t.testdir({}), input: { format: 'stream-json' }, output: streamJson });
  chain.write('{"schemaVersion":1,"type":"prompt","content":"waiting for more"}\n');
  setTimeout(() => chain.cancel('SIGTERM'), 20);
  const out = events(await readAll(chain));
  t.same(out.map((e) => e.type), ['error', 'run_end']);
  t.match(out[1], { exitCode: 143 });
});

t.test('backpressure: a paused reader stops the provider; resuming completes the run', async (t) => {
  const provider = scripted([{ chunks: Array.from({ length: 20000 }, (_, i) => `delta number ${i}; `) }]);
  const chain = execChain({ provider, cwd: t.testdir({}), input: { format: 'text', prompt: 'go' }, output: streamJson });
  // quiet for 150 ms: on a loaded machine the chain can pause 50 ms while it still pulls
  const paused = await settled(() => provider.handedOut, 150);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(provider.handedOut, paused, 'nothing more is pulled while nobody reads');
  // What fits in the buffers between the agent and the reader: a few 16 KiB byte buffers of ~110-byte lines, and small object buffers.
  t.ok(paused < 1000, `only ${paused} of 20000 chunks were handed out while paused`);
  const out = events(await readAll(chain));
  t.equal(out.filter((e) => e.type === 'text').length, 20000);
  t.same(out.at(-1)?.type, 'run_end');
});

t.test('backpressure in a conversation (--multi-turn): a paused reader stops the provider mid-turn, and the next turn waits', async (t) => {
  const provider = scripted([{ chunks: Array.from({ length: 20000 }, (_, i) => `delta number ${i}; `) }, { text: 'second' }]);
  const chain = execChain({ provider, cwd: t.testdir({}), multiTurn: true, input: { format: 'stream-json' }, output: streamJson });
  chain.write('{"schemaVersion":1,"type":"message","role":"user","content":"first"}\n{"schemaVersion":1,"type":"message","role":"user","content":"next"}\n');
  chain.end();
  // the turn begins once the input has gone through its chain (timers may run first: wait for the first chunk)
  while (provider.handedOut === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const paused = await settled(() => provider.handedOut);
  t.ok(paused > 0 && paused < 1000, `only ${paused} of 20000 chunks were handed out while paused`);
  const out = events(await readAll(chain));
  t.equal(out.filter((e) => e.type === 'text').length, 20001);
  t.same(out.filter((e) => e.type === 'turn_end').map((e) => (e as { status: string }).status), ['success', 'success']);
  t.same(out.at(-1)?.type, 'run_end');
});

t.test('execChain: a spooled final is cut where its redaction got to when the run is cancelled, and the run ends cancelled', async (t) => {
  const keys = Array.from({ length: 20_000 }, (_, index) => `key=sk-${index.toString(16).padStart(8, '0')}${'f'.repeat(40)}\n`).join('');
  const chain = execChain({ provider: scripted([{ chunks: [keys.slice(0, keys.length / 2), keys.slice(keys.length / 2)] }]), cwd: t.testdir({}), input: { format: 'text', prompt: 'go' }, output: streamJson, spoolAfterChars: 1000 });
  let text = '';
  for await (const chunk of chain) {
    text += String(chunk);
    if (text.includes('"type":"final"')) chain.cancel('SIGINT');
  }
  const out = events(text);
  t.same(out.slice(-3).map((event) => event.type), ['final', 'error', 'run_end']);
  t.match(out.at(-1), { status: 'error', exitCode: 130 });
  const final = (out.at(-3) as { text: string }).text;
  const whole = redactText(keys);
  t.ok(final.length < whole.length && whole.startsWith(final), `the final cut: ${final.length} of ${whole.length} characters`);
  t.equal(await chain.exitCode, 130);
});

t.test('execChain: a spooled final nobody reads (-o text, no session) is not redacted, and the run ends as it would', async (t) => {
  const long = 'word '.repeat(1000);
  const chain = execChain({ provider: scripted([{ text: long }]), cwd: t.testdir({}), input: { format: 'text', prompt: 'go' }, output: { format: 'text', stderr: { write: () => true } }, spoolAfterChars: 100 });
  t.equal(await readAll(chain), `${long}\n`, 'the streamed text, its line ended');
  t.equal(await chain.exitCode, 0);
});

