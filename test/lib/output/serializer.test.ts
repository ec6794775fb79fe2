import t from 'tap';
import { createSerializer, jsonLine, serializeStep } from '../../../lib/output/serializer.js';
import { PART_CHARS } from '../../../lib/output/json-parts.js';
import { applyStep } from '../../../lib/streams.js';
import type { OutputEvent } from '../../../lib/protocol/types.js';

const runId = 'run_20261130000000_aaaaaa';
const events = [
  { schemaVersion: 1, type: 'text', runId, delta: 'Hi.' },
  { schemaVersion: 1, type: 'tool_call', runId, id: 'c1', name: 'grep', args: { pattern: 'x' } },
  { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 },
] as OutputEvent[];

t.test('stream-json: each event as one JSON line', async (t) => {
  const write = createSerializer('stream-json', { write: () => t.fail('nothing on stderr') });
  t.same(events.map(write), events.map((event) => `${JSON.stringify(event)}\n`));
  t.equal(jsonLine({ a: 1 }), '{"a":1}\n');
});

t.test('json: the snake_case lines', async (t) => {
  const write = createSerializer('json', { write: () => t.fail('nothing on stderr') });
  t.same(events.map(write), ['{"type":"text","delta":"Hi."}\n', '{"type":"tool_call","id":"c1","name":"grep","arguments":"{\\"pattern\\":\\"x\\"}"}\n', '{"type":"done","exit_code":0}\n']);
});

t.test('stream-json and json: a huge final is emitted in parts, never as one string, the same bytes', async (t) => {
  const final = { schemaVersion: 1, type: 'final', runId, text: 'answer "x"\n'.repeat(PART_CHARS / 2) } as OutputEvent;
  for (const format of ['stream-json', 'json'] as const) {
    const parts = applyStep(serializeStep(format, { write: () => t.fail('nothing on stderr') }), [final, events[2]!]) as string[];
    t.equal(parts.join(''), [final, events[2]!].map(createSerializer(format, { write: () => {} })).join(''), format);
    t.ok(Math.max(...parts.map((part) => part.length)) < 2 * PART_CHARS, `${format}: no part near the line's ${parts.join('').length} characters`);
  }
});

t.test('text: the assistant text on stdout, progress on stderr, one renderer per serializer', async (t) => {
  const progress: string[] = [];
  const write = createSerializer('text', { write: (line: string) => progress.push(line) });
  t.same(events.map(write), ['Hi.', '\n', '']);
  t.same(progress, ['[tool] grep x\n']);
});

t.test('text: a writer that shares a screen is told how much of the answer comes before each progress line', async (t) => {
  const held: [string, number][] = [];
  const busy: string[] = [];
  const write = createSerializer('text', { write: () => t.fail('writeAfter is used'), writeAfter: (text, after) => held.push([text, after]), busy: (what) => busy.push(what) });
  t.same(events.map(write), ['Hi.', '\n', '']);
  t.same(held, [['[tool] grep x\n', 4]], 'after "Hi." and the newline that ends its line');
  t.same(busy, ['running grep']);
});

t.test('text: colour and width come from the writer', async (t) => {
  const seen: string[] = [];
  const long = { schemaVersion: 1, type: 'tool_call', runId, id: 'c2', name: 'bash', args: { command: 'y'.repeat(100) } } as OutputEvent;
  createSerializer('text', { write: (line: string) => seen.push(line), color: true, columns: 30 })(long);
  t.equal(seen[0], `\x1b[36m[tool]\x1b[39m bash ${'y'.repeat(16)}…\n`);
});

t.test('text: a terminal on stderr also sees the reasoning, dimmed unless NO_COLOR; json and stream-json as asked', async (t) => {
  const reasoning = { schemaVersion: 2, type: 'reasoning', runId, delta: 'Thinking.' } as OutputEvent;
  const seen = (isTTY: boolean) => {
    const progress: string[] = [];
    const write = createSerializer('text', { write: (line: string) => progress.push(line), isTTY });
    [reasoning, ...events].forEach(write);
    return progress.join('');
  };
  // tap itself runs tests with NO_COLOR set
  const noColor = process.env.NO_COLOR;
  t.teardown(() => (noColor === undefined ? delete process.env.NO_COLOR : (process.env.NO_COLOR = noColor)));
  delete process.env.NO_COLOR;
  t.equal(seen(false), '[tool] grep x\n', 'piped stderr: no reasoning');
  t.equal(seen(true), '\x1b[2mThinking.\x1b[22m\n\x1b[36m[tool]\x1b[39m grep x\n');
  process.env.NO_COLOR = '1';
  t.equal(seen(true), 'Thinking.\n[tool] grep x\n', 'NO_COLOR: shown, without escape codes');
  t.equal(createSerializer('json', { write: () => t.fail('nothing on stderr'), isTTY: true })(reasoning), '', 'json has no reasoning line');
  t.equal(createSerializer('stream-json', { write: () => t.fail('nothing on stderr') })(reasoning), `${JSON.stringify(reasoning)}\n`);
});
