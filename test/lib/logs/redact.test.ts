import t from 'tap';
import { createLogRedactor } from '../../../lib/logs/redact.js';
import { applyStep } from '../../../lib/streams.js';
import type { LogItem, LogLine } from '../../../lib/logs/framing.js';

const item = (lineNo: number, value: Record<string, unknown>, raw = true): LogItem => ({ lineNo, value, ...(raw ? { raw: JSON.stringify(value) } : {}) });
const text = (delta: string, runId = 'r1') => ({ schemaVersion: 1, type: 'text', runId, delta });
const KEY = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';

const jsonLinesOf = (out: string) => out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

function run(items: (LogItem | LogLine)[], secrets?: string[]): string {
  return applyStep(createLogRedactor({ secrets }), items).join('');
}

t.test('clean lines: as they came', async (t) => {
  const items = [item(1, { schemaVersion: 1, type: 'run_start', runId: 'r1', cwd: '/', provider: 'p', model: 'm' }), item(2, text('Hello ')), item(3, text('world')), item(4, { schemaVersion: 1, runId: 'r1', type: 'run_end', status: 'success', exitCode: 0 })];
  t.equal(run(items), items.map((i) => `${i.raw}\n`).join(''));
});

t.test('a secret split across deltas: redacted, the deltas re-split in the run\'s own shape', async (t) => {
  const out = run([item(1, text(`key ${KEY.slice(0, 5)}`)), item(2, text(KEY.slice(5, 20))), item(3, text(`${KEY.slice(20)} ok`)), item(4, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })]);
  t.notMatch(out, KEY.slice(8));
  const events = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.equal(events.filter((e) => e.type === 'text').map((e) => e.delta).join(''), 'key [REDACTED] ok');
  for (const e of events.filter((e) => e.type === 'text')) t.same(Object.keys(e), ['schemaVersion', 'type', 'runId', 'delta']);
  t.equal(events.at(-1)!.type, 'final', 'order kept');
});

t.test('held-back text waits for its run, not for another run\'s line: that goes out at once, the held text after it, nothing lost', async (t) => {
  const out = run([item(1, text('password=hun', 'r1')), item(2, { schemaVersion: 1, type: 'run_start', runId: 'r2', cwd: '/', provider: 'p', model: 'm' })]);
  const lines = out.trimEnd().split('\n');
  t.equal(lines.length, 2);
  t.match(JSON.parse(lines[0]!), { runId: 'r2' });
  t.match(JSON.parse(lines[1]!), { type: 'text', runId: 'r1' });
});

t.test('non-JSON lines, values without raw text, loaded credentials', async (t) => {
  t.equal(run([{ lineNo: 1, raw: `oops ${KEY}`, problem: 'not a JSON object' }]), 'oops [REDACTED]\n');
  t.equal(run([{ lineNo: 1, raw: 'plain', problem: 'not a JSON object' }]), 'plain\n');
  t.equal(run([item(1, { schemaVersion: 1, type: 'warning', runId: 'r', message: 'hi' }, false)]), '{"schemaVersion":1,"type":"warning","runId":"r","message":"hi"}\n');
  t.equal(run([item(1, { note: 'my token is s3cr3t-value-123' })], ['s3cr3t-value-123']), '{"note":"my token is [REDACTED]"}\n');
});

// A line is asked for keywords first; only a line with none is asked whether it may be a delta, and a
// line with neither goes out unparsed. Each answer that lets a line through must still catch its secret.
t.test('lines let through by the first questions: a delta with no keyword, a secret deep in a long line', async (t) => {
  // not as zero writes a delta (type first), so read as any line; the second names no keyword
  const reordered = (delta: string) => ({ lineNo: 1, value: text(delta), raw: `{"type":"text","schemaVersion":1,"runId":"r1","delta":"${delta}"}` });
  const out = run([reordered('the value is sk-proj-'), reordered(KEY.slice(8)), item(3, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })]);
  t.notMatch(out, KEY.slice(8, 24), 'a delta with no keyword still goes through its run: the key split across two deltas is caught');
  const long = run([reordered('the value is sk-proj-'), reordered(`${KEY.slice(8)} ${'plain words. '.repeat(100)}`), item(3, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })]);
  t.notMatch(long, KEY.slice(8, 24), 'the same with a second delta longer than 1 KiB (asked the other question first)');
  const prose = 'plain words of a tool output. '.repeat(300);
  const deep = run([item(1, { schemaVersion: 1, type: 'tool_result', runId: 'r1', id: 'c1', status: 'ok', output: `${prose}${KEY}` })]);
  t.notMatch(deep, KEY.slice(8), 'a key in the last characters of a long line');
  const inKey = run([item(1, { schemaVersion: 1, type: 'tool_call', runId: 'r1', id: 'c1', name: 'write_file', args: { path: prose, [KEY]: 1 } })]);
  t.notMatch(inKey, KEY.slice(8), 'a key as the name of a tool argument, after a long one');
  const clean = item(1, { schemaVersion: 1, type: 'tool_result', runId: 'r1', id: 'c1', status: 'ok', output: `${prose}no secret, a key and a token named` });
  t.equal(run([clean]), `${clean.raw}\n`, 'a line with keywords but no secret: as it came');
});

// A text line whose delta was clean went out as its raw line: a hand-edited `runId` or `schemaVersion` with a key in it too.
t.test('a text line with a secret outside its delta (runId, schemaVersion) is redacted, the delta kept', async (t) => {
  const out = run([item(1, { schemaVersion: KEY, type: 'text', runId: `run_${KEY}`, delta: 'hello' }), item(2, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })]);
  t.notMatch(out, KEY.slice(8, 20));
  t.match(out, '"delta":"hello"');
});

t.test('a log of thousands of runs: finished runs are forgotten, so a line costs the same late in the log as early', async (t) => {
  // Keeping every finished run made each line walk all runs before it: quadratic in the runs of a log.
  const log = (runs: number): LogItem[] => {
    const items: LogItem[] = [];
    for (let n = 0; n < runs; n++) {
      const runId = `run_${n}`;
      items.push(item(items.length + 1, { schemaVersion: 1, type: 'run_start', runId, cwd: '/', provider: 'p', model: 'm' }));
      for (let i = 0; i < 20; i++) items.push(item(items.length + 1, text(`word ${i} `, runId)));
      items.push(item(items.length + 1, { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 }));
    }
    return items;
  };
  const timed = (items: LogItem[]) => {
    const started = performance.now();
    const out = run(items);
    return { ms: performance.now() - started, out };
  };
  timed(log(200)); // warm-up
  const small = timed(log(1000));
  const large = timed(log(4000));
  // 4× the runs: linear work takes about 4× as long, the quadratic walk 16×.
  t.ok(large.ms < 10 * small.ms, `1000 runs: ${small.ms.toFixed(0)} ms, 4000 runs: ${large.ms.toFixed(0)} ms`);
  const items = log(4000);
  t.equal(large.out, items.map((i) => `${i.raw}\n`).join(''), 'every line as it came');
});

const reasoning = (delta: string, runId = 'r1') => ({ schemaVersion: 2, type: 'reasoning', runId, delta });

t.test('reasoning deltas: clean ones as they came, a secret split across them redacted and re-split in their own shape', async (t) => {
  const clean = [item(1, reasoning('Think ')), item(2, reasoning('twice.')), item(3, { ...text('Done.'), schemaVersion: 2 }), item(4, reasoning('Again.'))];
  t.equal(run(clean), clean.map((i) => `${i.raw}\n`).join(''));
  const out = run([item(1, reasoning(`the key ${KEY.slice(0, 6)}`)), item(2, reasoning(KEY.slice(6, 19))), item(3, reasoning(`${KEY.slice(19)} is set`)), item(4, { schemaVersion: 2, type: 'final', runId: 'r1', text: 'x' })]);
  t.notMatch(out, KEY.slice(8, 16));
  const events = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.equal(events.filter((e) => e.type === 'reasoning').map((e) => e.delta).join(''), 'the key [REDACTED] is set');
  for (const e of events.filter((e) => e.type === 'reasoning')) t.same(Object.keys(e), ['schemaVersion', 'type', 'runId', 'delta']);
  t.equal(events.at(-1)!.type, 'final', 'order kept');
});

t.test('reasoning then text: each kind redacted as its own text, the other kind\'s lines untouched', async (t) => {
  const cut = 10;
  const items = [item(1, reasoning('Plan: ')), item(2, reasoning(`use ${KEY.slice(0, cut)}`)), item(3, reasoning(KEY.slice(cut))), item(4, { ...text('Hello '), schemaVersion: 2 }), item(5, { ...text('there.'), schemaVersion: 2 })];
  const out = run(items);
  t.notMatch(out, KEY.slice(8, 16));
  const lines = out.trimEnd().split('\n');
  t.equal(lines[0], items[0]!.raw, 'the clean first reasoning delta, byte-identical');
  t.same(lines.filter((line) => line.includes('"type":"text"')), [items[3]!.raw, items[4]!.raw], 'the text lines, byte-identical, in order');
  t.equal(lines.filter((line) => line.includes('"type":"reasoning"')).map((line) => JSON.parse(line).delta).join(''), 'Plan: use [REDACTED]');
});

t.test('a secret split around lines that are not its run\'s text (another kind, another run, a line that is no event, the run\'s usage) is redacted; a clean log comes out as it came', async (t) => {
  const cut = 14;
  const middles: Array<[string, LogItem | LogLine]> = [
    ['a reasoning delta', item(0, reasoning('hmm'))],
    ['another run\'s delta', item(0, text('x', 'r2'))],
    ['another run\'s tool call', item(0, { schemaVersion: 1, type: 'tool_call', runId: 'r2', id: 'c1', name: 'read_file', args: {} })],
    ['a line that is no JSON (2>&1)', { lineNo: 0, raw: '[zero] debug: request sent' }],
    ['a logger\'s line', item(0, { level: 'info', msg: 'tick' })],
    ['a stored prompt', item(0, { schemaVersion: 1, type: 'prompt', content: 'hi' })],
    ['the run\'s usage', item(0, { schemaVersion: 1, type: 'usage', runId: 'r1', promptTokens: 1, completionTokens: 1, totalTokens: 2 })],
  ];
  for (const [name, middle] of middles) {
    const of = (version: number, value: Record<string, unknown>) => ({ ...value, schemaVersion: version });
    const items = [item(1, of(2, text(`Your key is ${KEY.slice(0, cut)}`))), middle, item(3, of(2, text(`${KEY.slice(cut)} ok`))), item(4, { schemaVersion: 2, type: 'final', runId: 'r1', text: 'x' })];
    const out = run(items);
    t.notMatch(out, KEY.slice(0, cut), name);
    t.notMatch(out, KEY.slice(cut), name);
    const runsText = out.trimEnd().split('\n').filter((line) => line.includes('"runId":"r1"') && line.includes('"type":"text"'));
    t.equal(runsText.map((line) => JSON.parse(line).delta).join(''), 'Your key is [REDACTED] ok', name);
    const clean = [item(1, text('Hello ')), middle, item(3, text('world')), item(4, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })];
    const expected = clean.map((i) => `${i.raw}\n`);
    // another run's lines go out at once, its deltas at their own run's end: the runs' lines keep their own order, not each other's
    if (name === 'another run\'s delta') t.same(run(clean), [...expected.filter((_, n) => n !== 1), expected[1]].join(''), `${name}: a clean log, each run in its order`);
    else if (name === 'another run\'s tool call') t.same(run(clean), [expected[1], ...expected.filter((_, n) => n !== 1)].join(''), `${name}: a clean log, each run in its order`);
    else t.equal(run(clean), expected.join(''), `${name}: a clean log, in its order`);
  }
});

t.test('a key given twice in a line: the line is written as parsed, never as it came with the first value', async (t) => {
  const lines = [
    `{"schemaVersion":1,"type":"text","runId":"r1","delta":"my key ${KEY}","delta":"ok"}`,
    `{"schemaVersion":1,"type":"tool_result","runId":"r1","id":"c1","name":"bash","output":"${KEY}","output":"fine","isError":false}`,
    `{"schemaVersion":1,"type":"final","runId":"r1","text":"${KEY}","text":"done"}`,
  ];
  const out = run(lines.map((raw, n) => ({ lineNo: n + 1, raw })));
  t.notMatch(out, KEY.slice(8, 20));
  t.equal(out.trimEnd().split('\n').length, 3);
});

const deltasOf = (out: string) => out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.type === 'text').map((e) => e.delta).join('');

t.test('a run of deltas whose text has keywords but no secret: every line as it came', async (t) => {
  const items = ['The api', 'Key and the to', 'ken count: ', 'pass', 'word ', 'fields are ', 'empty.'].map((delta, n) => item(n + 1, text(delta)));
  items.push(item(items.length + 1, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }));
  t.equal(run(items), items.map((i) => `${i.raw}\n`).join(''));
});

t.test('a run of deltas longer than what is kept before stream redaction: secrets split anywhere in it redacted, clean lines as they came', async (t) => {
  const words = Array.from({ length: 9000 }, (_, n) => `word${n} `); // ~85,000 characters
  const whole = `${words.slice(0, 2000).join('')}key ${KEY} ${words.slice(2000).join('')}then ${KEY}.`;
  const pieces: string[] = [];
  for (let at = 0; at < whole.length; at += 7) pieces.push(whole.slice(at, at + 7));
  const items = pieces.map((delta, n) => item(n + 1, text(delta)));
  items.push(item(items.length + 1, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }));
  const out = run(items);
  t.notMatch(out, KEY.slice(8, 16));
  t.equal(deltasOf(out), whole.replaceAll(KEY, '[REDACTED]'));
  t.equal(out.split('\n')[0], items[0]!.raw, 'the first line, byte-identical');
});

t.test('delta lines with escapes, read without parsing the line: what the parsed lines give, secrets redacted', async (t) => {
  const asLines = (items: LogItem[]) => items.map(({ lineNo, raw }) => ({ lineNo, raw: raw! }));
  const escapedKey = `\\u0073k-proj-${KEY.slice(8)}`;
  const logs = [
    ['a "quoted"\tword\n', `key ${KEY.slice(0, 12)}`, `${KEY.slice(12)}\nmore`],
    [`the key is "${KEY}"`],
    [`${KEY.slice(0, 20)}`, `${KEY.slice(20)}\\ \u00e9 done`],
    ['line one\n', `env: "password": "${KEY.slice(8)}"`],
  ];
  for (const deltas of logs) {
    const items = [...deltas.map((delta, n) => item(n + 1, text(delta))), item(deltas.length + 1, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' })];
    const out = run(asLines(items));
    t.equal(out, run(items), JSON.stringify(deltas));
    t.notMatch(out, KEY.slice(8, 20));
  }
  // an escape that spells the key's first letter, as JSON writes it in the line: decoded before the rules look
  const raw = `{"schemaVersion":1,"type":"text","runId":"r1","delta":"${escapedKey} ok"}`;
  t.notMatch(run([{ lineNo: 1, raw }]), KEY.slice(8, 20));
  // a key whose first letter after its prefix is written as an escape (\u0041 is A), split across two lines inside it
  const split = [`${KEY.slice(0, 8)}\\u00`, `41${KEY.slice(9)} ok`].map((delta, n) => item(n + 1, text(delta)));
  t.equal(run(asLines(split)), run(split), 'an escape torn across lines: as when parsed');
  t.notMatch(run(asLines(split)), KEY.slice(9, 20));
  // not one string: the line's last "delta" (a secret) is what JSON.parse reads, and it is redacted
  const twice = `{"schemaVersion":1,"type":"text","runId":"r1","delta":"a","delta":"${KEY}"}`;
  t.notMatch(run([{ lineNo: 1, raw: twice }]), KEY.slice(8, 20));
  t.equal(run([{ lineNo: 1, raw: '{"schemaVersion":1,"type":"text","runId":"r1","delta":"a\\"}' }]), '{"schemaVersion":1,"type":"text","runId":"r1","delta":"a\\"}\n', 'a torn line is kept as text');
});

t.test('delta lines with another program\'s fields before the delta (a sessionId on each, its own run ids): clean ones as they came, a key split across them redacted in their own shape', async (t) => {
  const theirs = (delta: string) => ({ schemaVersion: 1, type: 'text', runId: 'c0ffee-42', sessionId: 'sess_EnZUTZQgBMRI', delta });
  const lines = (deltas: string[]) => [...deltas.map((delta, n) => ({ lineNo: n + 1, raw: JSON.stringify(theirs(delta)) })), { lineNo: deltas.length + 1, raw: JSON.stringify({ schemaVersion: 1, type: 'final', runId: 'c0ffee-42', text: 'x' }) }];
  const clean = lines(['The ', 'answer ', 'is ', 'forty-two.']);
  t.equal(run(clean), clean.map(({ raw }) => `${raw}\n`).join(''), 'byte-identical');
  const out = run(lines(['the key ', KEY.slice(0, 14), `${KEY.slice(14)} works`]));
  t.notMatch(out, KEY.slice(8, 20));
  const deltas = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((event) => event.type === 'text');
  t.equal(deltas.map((event) => event.delta).join(''), 'the key [REDACTED] works');
  for (const event of deltas) t.same(Object.keys(event), ['schemaVersion', 'type', 'runId', 'sessionId', 'delta'], 'the re-split lines keep the run\'s fields');
});

t.test('delta lines with a timestamp after the delta: clean ones as they came, a key split across them redacted, the re-split lines with each field in its place', async (t) => {
  const stamped = (delta: string, second: number, after: Record<string, unknown> = {}) => ({ schemaVersion: 1, type: 'text', runId: 'r1', delta, ts: `2026-12-06T00:00:0${second}.000Z`, ...after });
  const lines = (events: object[]) => [...events, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }].map((event, n) => ({ lineNo: n + 1, raw: JSON.stringify(event) }));
  const clean = lines([stamped('The ', 1), stamped('answer is ', 2, { seq: 2 }), stamped('"quoted" \\ forty-two.', 3)]);
  t.equal(run(clean), clean.map(({ raw }) => `${raw}\n`).join(''), 'byte-identical');
  const out = run(lines([stamped('the key ', 1), stamped(KEY.slice(0, 14), 2), stamped(`${KEY.slice(14)} works`, 3)]));
  t.notMatch(out, KEY.slice(8, 20));
  const deltas = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((event) => event.type === 'text');
  t.equal(deltas.map((event) => event.delta).join(''), 'the key [REDACTED] works');
  for (const event of deltas) t.same(Object.keys(event), ['schemaVersion', 'type', 'runId', 'delta', 'ts'], 'the delta between the fields it came between');
  const secretAfter = run(lines([stamped('hello', 1, { note: `api key ${KEY}` })]));
  t.notMatch(secretAfter, KEY.slice(8, 20), 'a secret in a field after the delta');
  t.match(secretAfter, '"delta":"hello"');
  t.notMatch(run(lines([stamped('hi', 1, { note: 'Zq8nR2vT6yU1iO5p' })]), ['Zq8nR2vT6yU1iO5p']), 'Zq8nR2vT6yU1iO5p', 'a credential in use there, with no keyword');
});

t.test('delta lines with a timestamp before each: clean ones as they came, a secret that shows up in one of the timestamps redacted', async (t) => {
  const stamped = (delta: string, ts: string) => ({ ts, schemaVersion: 1, type: 'text', runId: 'r1', delta });
  const lines = (events: object[]) => [...events, { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }].map((event, n) => ({ lineNo: n + 1, raw: JSON.stringify(event) }));
  const clean = lines([stamped('The ', '00:01'), stamped('answer ', '00:02'), stamped('is 42.', '00:03')]);
  t.equal(run(clean), clean.map(({ raw }) => `${raw}\n`).join(''), 'byte-identical');
  const out = run(lines([stamped('a ', '00:01'), stamped('b ', `token=${KEY}`), stamped('c ', `00:0${KEY.slice(9, 12)}`), stamped('d', 'x-api-key: abc')]));
  t.notMatch(out, KEY.slice(8, 20), 'the key in a timestamp');
  t.match(out, '"ts":"token=[REDACTED]"');
  t.equal(jsonLinesOf(out).filter((event) => event.type === 'text').map((event) => event.delta).join(''), 'a b c d');
});

t.test('a delta line whose fields before the delta hold a secret: the field redacted, the delta through its run', async (t) => {
  const raw = JSON.stringify({ schemaVersion: 1, type: 'text', runId: 'r1', note: `api key ${KEY}`, delta: 'hello' });
  const out = run([{ lineNo: 1, raw }, { lineNo: 2, raw: JSON.stringify({ schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }) }]);
  t.notMatch(out, KEY.slice(8, 20));
  t.match(out, '"delta":"hello"');
  const loaded = JSON.stringify({ schemaVersion: 1, type: 'text', runId: 'r1', note: 'Zq8nR2vT6yU1iO5p', delta: 'hi' });
  t.notMatch(run([{ lineNo: 1, raw: loaded }], ['Zq8nR2vT6yU1iO5p']), 'Zq8nR2vT6yU1iO5p', 'a credential in use in a field with no keyword');
});

t.test('a line whose slashes are escaped (\\/, which JSON.stringify never writes) is read, not let through: the escape hid the keyword', async (t) => {
  const url = 'https:\\/\\/admin:Zx9qWv27Lm@db.example.com\\/app';
  const raw = `{"schemaVersion":1,"type":"tool_result","runId":"r1","id":"c1","status":"ok","output":"db at ${url}"}`;
  const out = run([{ lineNo: 1, raw }]);
  t.notMatch(out, 'Zx9qWv27Lm');
  t.equal((JSON.parse(out) as { output: string }).output, 'db at https://admin:[REDACTED]@db.example.com/app');
  // a loaded credential with a slash, written with \/ in the line
  const secret = 'Ab9/xY7+Qw3/Lm5zPq8R';
  const withSecret = `{"schemaVersion":1,"type":"warning","runId":"r1","message":"got ${secret.replaceAll('/', '\\/')}"}`;
  t.notMatch(run([{ lineNo: 1, raw: withSecret }], [secret]), 'xY7+Qw3');
  const clean = '{"schemaVersion":1,"type":"warning","runId":"r1","message":"see a\\/b"}';
  t.equal(run([{ lineNo: 1, raw: clean }]), `${clean}\n`, 'nothing to redact: the line as it came');
});

t.test('usage lines as zero writes them go out as they came; one that differs is redacted as any line', async (t) => {
  const runId = 'run_20261201090000_k3x9q2';
  const usage = (fields: Record<string, unknown>, schemaVersion = 1) => ({ schemaVersion, type: 'usage', runId, promptTokens: 410, completionTokens: 31, totalTokens: 441, ...fields });
  for (const value of [usage({}), usage({ costUsd: 0.0017 }), usage({ costUsd: 1e-7 }, 2)]) t.equal(run([item(1, value)]), `${JSON.stringify(value)}\n`);
  // the same shape, but a key or an id that is not zero's own
  t.equal(run([item(1, usage({ costUsd: 0.01, apiKey: KEY }))]), `${JSON.stringify(usage({ costUsd: 0.01, apiKey: '[REDACTED]' }))}\n`, 'a field of its own');
  const foreignRun = item(1, { schemaVersion: 1, type: 'usage', runId: `run_${KEY}`, promptTokens: 1, completionTokens: 1, totalTokens: 2 });
  t.notMatch(run([foreignRun]), KEY.slice(8), 'a run id of another form holding a secret');
});

t.test('a heartbeat, usage or warning line between deltas: the text goes on after it, a key split around it redacted', async (t) => {
  const beside = [
    { schemaVersion: 1, type: 'heartbeat', runId: 'r1' },
    { schemaVersion: 1, type: 'usage', runId: 'r1', totalTokens: 3 },
    { schemaVersion: 1, type: 'warning', runId: 'r1', message: 'slow' },
  ];
  for (const parsed of [true, false]) {
    for (const event of beside) {
      const lines = [text(`key ${KEY.slice(0, 12)}`), event, text(`${KEY.slice(12)} ok`), { schemaVersion: 1, type: 'final', runId: 'r1', text: 'x' }];
      const out = run(lines.map((value, index) => (parsed ? item(index + 1, value) : { lineNo: index + 1, raw: JSON.stringify(value) })));
      t.notMatch(out, KEY.slice(8, 16), `${event.type}${parsed ? '' : ', unparsed'}: no piece of the key`);
      t.equal(deltasOf(out), 'key [REDACTED] ok');
      t.ok(out.includes(JSON.stringify(event)), `${event.type}: written as it came`);
    }
  }
});

t.test('clean deltas around a heartbeat: every line as it came, in its place', async (t) => {
  const values = [text('Hello '), { schemaVersion: 1, type: 'heartbeat', runId: 'r1' }, text('world'), { schemaVersion: 1, type: 'usage', runId: 'r1', totalTokens: 2 }, text('!'), { schemaVersion: 1, type: 'run_end', runId: 'r1', status: 'success', exitCode: 0 }];
  const raws = values.map((value) => JSON.stringify(value));
  t.equal(run(raws.map((raw, index) => ({ lineNo: index + 1, raw }))), raws.map((raw) => `${raw}\n`).join(''));
  t.equal(run(values.map((value, index) => item(index + 1, value))), raws.map((raw) => `${raw}\n`).join(''));
});

t.test('interleaved runs: each run\'s own lines keep their order, though another run holds deltas back', async (t) => {
  const a = (value: Record<string, unknown>) => item(0, { schemaVersion: 2, runId: 'ra', ...value });
  const b = (value: Record<string, unknown>) => item(0, { schemaVersion: 2, runId: 'rb', ...value });
  const items = [
    a({ type: 'run_start', cwd: '/', provider: 'p', model: 'm' }),
    b({ type: 'run_start', cwd: '/', provider: 'p', model: 'm' }),
    a({ type: 'tool_call', id: 'c1', name: 'read_file', args: {} }),
    b({ type: 'text', delta: 'then' }),
    a({ type: 'tool_result', id: 'c1', status: 'ok', output: 'ok', truncated: false }),
    a({ type: 'text', delta: 'done' }),
    a({ type: 'final', text: 'done' }),
    a({ type: 'run_end', status: 'success', exitCode: 0 }),
    b({ type: 'run_end', status: 'success', exitCode: 0 }),
  ];
  const out = run(items).trimEnd().split('\n');
  t.same(out.filter((line) => line.includes('"ra"')), items.filter((i) => i.raw!.includes('"ra"')).map((i) => i.raw), 'run ra in its order');
  t.same(out.filter((line) => line.includes('"rb"')), items.filter((i) => i.raw!.includes('"rb"')).map((i) => i.raw), 'run rb in its order');
});

t.test('a delta line naming its runId twice belongs to the last one named, as JSON.parse reads it: a key split across such lines never leaks', async (t) => {
  const lines = [
    '{"schemaVersion":2,"type":"text","runId":"ra","delta":"key ghp_abcdefghij"}',
    '{"schemaVersion":2,"type":"text","runId":"rx","runId":"ra","delta":"KLMNOPQRST"}',
    '{"schemaVersion":2,"type":"text","runId":"ry","runId":"ra","delta":"UVWXYZ0123"}',
    '{"schemaVersion":2,"type":"text","runId":"ra","delta":"456789 done"}',
    '{"schemaVersion":2,"type":"run_end","runId":"ra","status":"success","exitCode":0}',
  ];
  const out = run(lines.map((raw, n) => ({ lineNo: n + 1, raw })));
  for (const piece of ['abcdefghij', 'KLMNOPQRST', 'UVWXYZ0123', '456789']) t.notMatch(out, piece);
  t.equal(deltasOf(out), 'key [REDACTED] done');
  t.equal(out.trimEnd().split('\n').length, 2, 'each line once');
});

t.test('a runId nested in a line\'s value (a tool call\'s args, keys sorted as Zero Go writes them) is not the line\'s own', async (t) => {
  const lines = [
    '{"delta":"hello ","runId":"A","schemaVersion":1,"type":"text"}',
    '{"args":{"runId":"B"},"id":"c1","name":"lookup","runId":"A","schemaVersion":1,"type":"tool_call"}',
    '{"delta":"world","runId":"A","schemaVersion":1,"type":"text"}',
    '{"exitCode":0,"runId":"A","schemaVersion":1,"status":"success","type":"run_end"}',
  ];
  t.equal(run(lines.map((raw, n) => ({ lineNo: n + 1, raw }))), lines.map((raw) => `${raw}\n`).join(''), 'the clean log as it came, in its order');
});
