import t from 'tap';
import { createEventRedactor } from '../../../lib/redaction/events.js';
import type { Event } from '../../../lib/protocol/types.js';
import { TextSpool } from '../../../lib/files/text-spool.js';

const key = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');

function run(events: Event[], secrets?: string[]): Event[] {
  const redactor = createEventRedactor({ secrets });
  return [...events.flatMap((event) => redactor.event(event)), ...redactor.end()];
}

t.test('text deltas are held back and re-split; other events are redacted whole, after the held text', async (t) => {
  const out = run([
    { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'scripted' },
    { type: 'text', delta: `token ${key.slice(0, 10)}` },
    { type: 'text', delta: key.slice(10) },
    { type: 'tool_call', id: 'c1', name: 'grep', args: { pattern: key } },
    { type: 'tool_result', id: 'c1', status: 'ok', output: `a.txt:1:${key}`, truncated: false },
    { type: 'text', delta: 'Found it' },
    { type: 'final', text: 'Found it' },
  ]);
  t.same(out, [
    { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'scripted' },
    // `token ` is held with the token after it: a name next to an open match is open too (hold.ts)
    { type: 'text', delta: 'token [REDACTED]' },
    { type: 'tool_call', id: 'c1', name: 'grep', args: { pattern: '[REDACTED]' } },
    { type: 'tool_result', id: 'c1', status: 'ok', output: 'a.txt:1:[REDACTED]', truncated: false },
    // nothing of `it` could begin a secret: it goes out with its delta, not with the next event
    { type: 'text', delta: 'Found it' },
    { type: 'final', text: 'Found it' },
  ]);
});

t.test('the end of the stream releases what is held, and never an empty delta', async (t) => {
  t.same(run([{ type: 'text', delta: 'dangling' }]), [{ type: 'text', delta: 'dangling' }]);
  t.same(run([{ type: 'text', delta: '' }, { type: 'final', text: '' }]), [{ type: 'final', text: '' }]);
});

t.test('error messages and warnings are redacted too', async (t) => {
  const out = run([{ type: 'error', code: 'provider_error', message: `refused key ${key}`, recoverable: false }, { type: 'warning', message: 'uses plain-credential-1234' }], ['plain-credential-1234']);
  t.same(out, [
    { type: 'error', code: 'provider_error', message: 'refused key [REDACTED]', recoverable: false },
    { type: 'warning', message: 'uses [REDACTED]' },
  ]);
});

t.test('reasoning deltas are one text in pieces too: a key split across them never leaks', async (t) => {
  const out = run([
    { type: 'reasoning', delta: `The key is ${key.slice(0, 12)}` },
    { type: 'reasoning', delta: key.slice(12) },
    { type: 'reasoning', delta: ', so I will not print it.' },
    { type: 'text', delta: 'Done.' },
  ]);
  t.notOk(JSON.stringify(out).includes(key.slice(4, 16)), 'no piece of the key');
  const reasoning = out.filter((event) => event.type === 'reasoning').map((event) => (event as { delta: string }).delta).join('');
  t.equal(reasoning, 'The key is [REDACTED], so I will not print it.');
  t.ok(out.every((event) => !('delta' in event) || event.delta !== ''), 'no empty delta');
});

t.test('reasoning and text are two texts: a key split around a delta of the other kind never leaks, and that delta goes out at once', async (t) => {
  for (const [kind, other] of [['text', 'reasoning'], ['reasoning', 'text']] as const) {
    const out = run([
      { type: kind, delta: `the key is ${key.slice(0, 12)}` },
      { type: other, delta: 'meanwhile' },
      { type: kind, delta: `${key.slice(12)} ok` },
      { type: 'final', text: 'x' },
    ]);
    t.notMatch(JSON.stringify(out), key.slice(4, 12), `${kind}: the first half`);
    t.notMatch(JSON.stringify(out), key.slice(12, 24), `${kind}: the second half`);
    const texts = (type: string) => out.filter((event) => event.type === type).map((event) => (event as { delta: string }).delta).join('');
    t.equal(texts(kind), 'the key is [REDACTED] ok');
    t.equal(texts(other), 'meanwhile');
    t.equal(out.at(-1)!.type, 'final');
  }
});

t.test('reasoning and text: each comes out whole and in its own order', async (t) => {
  const out = run([
    { type: 'reasoning', delta: 'thinking about sk-' },
    { type: 'text', delta: 'The answer' },
    { type: 'reasoning', delta: 'more thought' },
    { type: 'text', delta: ' is 42.' },
  ]);
  const text = (type: string) => out.filter((event) => event.type === type).map((event) => (event as { delta: string }).delta).join('|');
  t.equal(text('reasoning').replace(/\|/g, ''), 'thinking about sk-more thought');
  t.equal(text('text').replace(/\|/g, ''), 'The answer is 42.');
});

t.test('a re-split reasoning delta keeps the fields of its own event, not those of a text event', async (t) => {
  const stamped = (type: 'text' | 'reasoning', delta: string) => ({ schemaVersion: 2, type, runId: `run_20261201000000_${type === 'text' ? 'aaaaaa' : 'bbbbbb'}`, delta }) as unknown as Event;
  const out = run([stamped('text', 'hello '), stamped('reasoning', `why ${key}`), stamped('text', 'world')]);
  for (const event of out) t.equal((event as unknown as { runId: string }).runId.endsWith(event.type === 'text' ? 'aaaaaa' : 'bbbbbb'), true, `${event.type} keeps its own fields`);
});

t.test('a spooled final: its text through the stream redactor into a spool of its own, as a final of the whole text is redacted', async (t) => {
  const text = `start ${'words and more words '.repeat(30)}${key} middle credential-in-use-123 ${'tail '.repeat(30)}`;
  const raw = new TextSpool(50);
  // pieces of 7: the key and the literal cut across them
  for (let start = 0; start < text.length; start += 7) raw.write(text.slice(start, start + 7));
  const [redacted] = run([{ type: 'final', text: '', spool: raw }], ['credential-in-use-123']) as unknown as [{ text: string; spool: TextSpool }];
  const [whole] = run([{ type: 'final', text }], ['credential-in-use-123']) as unknown as [{ text: string }];
  t.not(redacted.spool, raw, 'a new spool');
  t.equal(redacted.text, '');
  t.equal(redacted.spool.text(), whole.text);
  t.notMatch(whole.text, key);
  t.equal(raw.text(), text, 'the raw spool is left as it was (the next request needs it)');
});

t.test('a heartbeat, usage or warning between deltas goes out at once, and the text they interrupt stays one text', async (t) => {
  for (const between of [{ type: 'heartbeat' }, { type: 'usage', totalTokens: 3 }, { type: 'warning', message: 'slow' }] as Event[]) {
    const out = run([
      { type: 'text', delta: `key ${key.slice(0, 10)}` },
      between,
      { type: 'text', delta: `${key.slice(10)} end` },
      { type: 'final', text: 'x' },
    ]);
    const text = out.flatMap((event) => (event.type === 'text' ? [event.delta] : [])).join('');
    t.equal(text, 'key [REDACTED] end', `${between.type}: the key split around it is redacted`);
    const at = out.findIndex((event) => event.type === between.type);
    t.same(out[at], between, `${between.type}: written as it came`);
    t.ok(at < out.findIndex((event) => event.type === 'text' && event.delta.includes('[REDACTED]')), `${between.type}: ahead of the held text`);
  }
});

t.test("a delta event's other fields are redacted, its delta re-split as ever", async (t) => {
  const redactor = createEventRedactor();
  const fields = { type: 'text', delta: 'hi there', note: `key ${key}`, meta: { password: 'hunter2hunter2' } } as unknown as Event;
  const out = [...redactor.event(fields), ...redactor.event({ ...fields, delta: ' again' } as Event), ...redactor.end()];
  t.ok(out.length > 0);
  for (const event of out) {
    t.notOk(JSON.stringify(event).includes(key), 'no key in a field');
    t.notOk(JSON.stringify(event).includes('hunter2hunter2'), 'no password in a nested field');
  }
  t.equal(out.map((event) => (event as { delta: string }).delta).join(''), 'hi there again');
  const plain: Event = { type: 'text', delta: 'plain' };
  const again = createEventRedactor();
  t.equal(again.event(plain)[0], plain, 'an event of type and delta alone goes out as it came');
});

t.test("another run's delta is another text: what one run held goes out under its own runId first", async (t) => {
  const ofRun = (runId: string, delta: string) => ({ type: 'text', runId, delta }) as unknown as Event;
  const out = run([ofRun('run_a', `key ${key.slice(0, 10)}`), ofRun('run_b', 'Bravo says hello'), { type: 'final', text: 'x' }]) as unknown as { runId?: string; delta?: string }[];
  const deltas = (runId: string) => out.filter((event) => event.runId === runId).map((event) => event.delta).join('');
  t.equal(deltas('run_a'), `key ${key.slice(0, 10)}`, "run a's text, all under its id");
  t.equal(deltas('run_b'), 'Bravo says hello', "run b's text, all under its id");
});
