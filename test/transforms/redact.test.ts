import t from 'tap';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { redact } from '../../transforms/redact.js';
import { through, throughUntilError } from '../helpers/streams.js';
import type { Event } from '../../lib/protocol/types.js';

const openaiKey = ['sk-proj-', 'Qm7Xt2Lp9Rv4Nc8Hb3Wd6Kf1Zs5Yg0Ja'].join('');
const text = (events: Event[]) => events.map((event) => (event.type === 'text' ? event.delta : '')).join('');

t.test('secret-looking text inside any event is replaced', async (t) => {
  const out = await through<Event>(redact(), [
    { type: 'text', delta: `use ${openaiKey} here` },
    { type: 'tool_result', id: 'call_1', status: 'ok', output: `OPENAI_API_KEY=${openaiKey}\n`, truncated: false },
  ]);
  t.equal(text(out), 'use [REDACTED] here');
  t.same(out.at(-1), { type: 'tool_result', id: 'call_1', status: 'ok', output: 'OPENAI_API_KEY=[REDACTED]\n', truncated: false });
});

t.test('a key split across text deltas is redacted whole', async (t) => {
  const out = await through<Event>(redact(), [
    { type: 'text', delta: 'The key is sk-pro' },
    { type: 'text', delta: openaiKey.slice(6, 20) },
    { type: 'text', delta: `${openaiKey.slice(20)} — keep it safe.` },
    { type: 'final', text: `The key is ${openaiKey} — keep it safe.` },
  ]);
  t.equal(text(out), 'The key is [REDACTED] — keep it safe.');
  t.notMatch(JSON.stringify(out), openaiKey.slice(8, 16));
  t.same(out.at(-1), { type: 'final', text: 'The key is [REDACTED] — keep it safe.' }, 'final.text is the redaction of the whole text');
  t.ok(out.every((event) => event.type !== 'text' || event.delta.length > 0), 'no empty text events');
});

t.test('held-back text is released before the next non-text event, in order', async (t) => {
  const out = await through<Event>(redact(), [
    { type: 'text', delta: 'Reading token' },
    { type: 'tool_call', id: 'c1', name: 'read_file', args: { path: 'a' } },
  ]);
  t.same(out, [
    { type: 'text', delta: 'Reading ' },
    { type: 'text', delta: 'token' },
    { type: 'tool_call', id: 'c1', name: 'read_file', args: { path: 'a' } },
  ]);
});

t.test('ordinary text is never held: a delta goes out whole unless its end could begin a secret', async (t) => {
  const stage = redact();
  const seen: Event[] = [];
  stage.on('data', (event: Event) => seen.push(event));
  stage.write({ type: 'text', delta: 'Hello there, ' });
  stage.write({ type: 'text', delta: 'this is plain prose.' });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(text(seen), 'Hello there, this is plain prose.', 'every word is out, the last too');
  stage.write({ type: 'text', delta: ' Use s' });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(text(seen), 'Hello there, this is plain prose. Use ', '`s` could begin `sk-…`: it waits');
  stage.end();
  await new Promise((resolve) => stage.on('end', resolve));
  t.equal(text(seen), 'Hello there, this is plain prose. Use s');
});

t.test('values under sensitive keys in tool arguments are replaced; counts and ids are not', async (t) => {
  const [call, usage] = await through(redact(), [
    { type: 'tool_call', id: 'call_1', name: 'login', args: { user: 'ada', password: 'correct horse', apiKey: 'abc', nested: { client_secret: 'x' } } },
    { type: 'usage', promptTokens: 12, completionTokens: 8, totalTokens: 20 },
  ]);
  t.same(call, { type: 'tool_call', id: 'call_1', name: 'login', args: { user: 'ada', password: '[REDACTED]', apiKey: '[REDACTED]', nested: { client_secret: '[REDACTED]' } } });
  t.same(usage, { type: 'usage', promptTokens: 12, completionTokens: 8, totalTokens: 20 });
});

t.test('the credentials in use are redacted even when they match no pattern', async (t) => {
  const [event] = await through(redact({ secrets: ['plain-looking-credential-42'] }), [{ type: 'final', text: 'it was plain-looking-credential-42!' }]);
  t.same(event, { type: 'final', text: 'it was [REDACTED]!' });
});

t.test('ordinary words pass untouched', async (t) => {
  const prose = 'The task-list names the risk-level; the tokenizer counts promptTokens.';
  t.equal(text(await through<Event>(redact(), [{ type: 'text', delta: prose }])), prose);
});

t.test('an embedding program: stamped JSONL through split → parse → validate → redact → serialize stays schema-valid', async (t) => {
  // imported from the package entry, as `import { … } from 'zero-stream'` gives them
  const zero = await import('../../lib/index.js');
  const runId = zero.newRunId();
  const stamped = [
    { schemaVersion: 1, type: 'text', runId, delta: 'hello world' },
    { schemaVersion: 1, type: 'text', runId, delta: `, the key is ${openaiKey.slice(0, 12)}` },
    { schemaVersion: 1, type: 'text', runId, delta: `${openaiKey.slice(12)} ok` },
    { schemaVersion: 1, type: 'final', runId, text: `hello world, the key is ${openaiKey} ok` },
    { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 },
  ];
  const input = Readable.from([stamped.map((event) => JSON.stringify(event)).join('\n') + '\n']);
  const lines: string[] = [];
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  await pipeline(input, zero.split(), zero.parse(), zero.validate('output'), zero.redact(), zero.serialize('stream-json'), collect);
  const out = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const texts = out.filter((event) => event.type === 'text');
  t.ok(texts.length >= 2, 'the deltas were re-split');
  t.same(texts.map((event) => Object.keys(event).sort()), texts.map(() => ['delta', 'runId', 'schemaVersion', 'type']), 'every field of the event is kept');
  t.ok(texts.every((event) => event.runId === runId && event.schemaVersion === 1));
  t.equal(texts.map((event) => event.delta).join(''), 'hello world, the key is [REDACTED] ok');
  t.notMatch(lines.join('\n'), openaiKey.slice(12, 20));
  // what came out is valid against the shipped output schema
  const verdicts = out.map((value) => zero.checkAgainstSchema('output', value));
  t.same(verdicts.filter((verdict) => !verdict.ok), [], 'every line is a valid output event');
});

t.test('anything but an output event fails the stream with what the stage takes, and nothing passes unredacted', async (t) => {
  for (const item of [`OPENAI_API_KEY=${openaiKey}`, { type: 'txet', delta: `key ${openaiKey}` }]) {
    const { out, error } = await throughUntilError<Event>(redact(), [{ type: 'text', delta: 'before ' }, item]);
    t.match(error, { name: 'TypeError', message: /^The redact stage takes output events/ });
    t.notMatch(JSON.stringify(out) + error?.message, openaiKey);
  }
});
