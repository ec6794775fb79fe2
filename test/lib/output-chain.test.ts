import t from 'tap';
import { outputChain, reportFailure } from '../../lib/output-chain.js';
import { checkAgainstSchema } from '../../lib/protocol/validate.js';
import { readText, through, throughUntilError } from '../helpers/streams.js';
import { jsonLines } from '../helpers/zero.js';
import type { OutputEvent } from '../../lib/protocol/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextSpool } from '../../lib/files/text-spool.js';
import { createRecorder } from '../../lib/sessions/recorder.js';
import { redactText } from '../../lib/redaction/index.js';

const events = (text: string) => jsonLines(text) as unknown as OutputEvent[];

const streamJson = { format: 'stream-json' } as const;

t.test('outputChain: redacts, stamps and serializes', async (t) => {
  const key = `sk-proj-${'A1b2C3d4'.repeat(5)}`;
  const out = (await through(outputChain(streamJson), [{ type: 'text', delta: `key ${key.slice(0, 12)}` }, { type: 'text', delta: key.slice(12) }])).join('');
  const texts = events(out);
  t.notMatch(out, key.slice(8, 16));
  t.equal(texts.map((event) => (event.type === 'text' ? event.delta : '')).join(''), 'key [REDACTED]', 'a key split across deltas is redacted whole');
  for (const event of texts) t.ok(checkAgainstSchema('output', event).ok);
});

t.test('outputChain: a caller that writes anything but events gets a clear error, not a {"0":"a",…} line', async (t) => {
  const { out, error } = await throughUntilError(outputChain(streamJson), [{ type: 'text', delta: 'fine' }, 'a']);
  t.match(error, { name: 'TypeError', message: /^The outputChain stage takes output events .* not a string/ });
  t.notMatch(out.join(''), /"0":/);
});

t.test('reportFailure: a failure before the run, in each format', async (t) => {
  const { UsageError } = await import('../../lib/errors.js');
  const error = new UsageError('Invalid value for --max-turns: "abc". Expected a positive integer.');
  const json = events(await readText(reportFailure(error, streamJson).readable));
  t.same(json.map((e) => e.type), ['error', 'run_end']);
  const legacy = events(await readText(reportFailure(error, { format: 'json' }).readable)) as unknown as Record<string, unknown>[];
  t.same(legacy, [{ type: 'error', code: 'usage_error', message: error.message }, { type: 'done', exit_code: 2 }]);
  const stderr: string[] = [];
  const outcome = reportFailure(error, { format: 'text', stderr: { write: (line: string) => stderr.push(line) } });
  t.equal(await readText(outcome.readable), '');
  t.same(stderr, [`[zero] ${error.message}\n`]);
  t.equal(await outcome.exitCode, 2);
});

// The log tools' chains, as a program that embeds them uses them: bytes of a log in, bytes out.

t.test('outputChain: a spooled final writes what the same final as a string writes (each format, each version, the session), its secrets redacted across read edges', async (t) => {
  const MiB = 1 << 20;
  const literal = 'credential-in-use-123';
  const key = `sk-ant-api03-${'K'.repeat(93)}AA`;
  // secrets straddling the spool's 1 MiB reads; quotes, newlines, multi-byte text and pairs around them
  const filler = (length: number) => 'lorem "ipsum" é 😀\n'.repeat(Math.ceil(length / 19)).slice(0, length);
  const text = `${filler(MiB - 20)} ${key} ${filler(MiB - key.length - 22 - 10)} ${literal} end`;
  const runWith = async (final: object, format: 'stream-json' | 'json' | 'text', schemaVersion: 1 | 2, recorder?: ReturnType<typeof createRecorder>) => {
    const run: object[] = [{ type: 'run_start', cwd: '/repo', provider: 'openai', model: 'm' }, { type: 'text', delta: 'Hi.' }, final, { type: 'run_end', status: 'success', exitCode: 0 }];
    return (await through(outputChain({ format, schemaVersion, runId: 'run_20261206000000_aaaaaa', secrets: [literal], stderr: { write: () => {} }, ...(recorder ? { recorder } : {}) }), run)).join('');
  };
  const spooled = () => {
    const spool = new TextSpool(1000);
    for (let start = 0; start < text.length; start += 64 * 1024) spool.write(text.slice(start, start + 64 * 1024));
    return { type: 'final', text: '', spool };
  };
  for (const [format, schemaVersion] of [['stream-json', 1], ['stream-json', 2], ['json', 1], ['text', 1]] as const) {
    const expected = await runWith({ type: 'final', text }, format, schemaVersion);
    t.ok((await runWith(spooled(), format, schemaVersion)) === expected, `${format}, version ${schemaVersion}: the same bytes`);
    if (format === 'text') continue;
    t.notMatch(expected, key.slice(14, 40));
    t.notMatch(expected, literal);
  }
  const stored = async (final: object) => {
    const root = t.testdir({});
    const recorder = createRecorder({ root, plan: { kind: 'new' }, cwd: '/repo', provider: 'openai', model: 'm', secrets: [literal] });
    const { sessionId } = await recorder.begin('Write.');
    const out = await runWith(final, 'stream-json', 1, recorder);
    return { out, journal: readFileSync(join(root, sessionId!, 'events.jsonl'), 'utf8') };
  };
  const [asString, asSpool] = [await stored({ type: 'final', text }), await stored(spooled())];
  t.ok(asSpool.out === asString.out, 'with a session: stdout the same');
  t.ok(asSpool.journal.replace(/"content":"[^"]*"/, '') === asString.journal.replace(/"content":"[^"]*"/, ''), 'and events.jsonl the same');
  t.notMatch(asSpool.journal, key.slice(14, 40));
});

t.test('outputChain: a spooled final is redacted as its reader takes it; a reader that stalls stops the work', async (t) => {
  const MiB = 1 << 20;
  const key = `sk-ant-api03-${'K'.repeat(93)}AA`;
  const text = `${'plain words, and more of them\n'.repeat(3000)}token=${key}\n`.repeat(100);
  const source = new TextSpool(1000);
  for (let start = 0; start < text.length; start += MiB) source.write(text.slice(start, start + MiB));
  // the raw spool is itself made as it is read, so what the chain has pulled of it can be counted
  let pulled = 0;
  const raw = source.through({ push: (piece) => ((pulled += piece.length), piece), flush: () => '' });
  const chain = outputChain({ ...streamJson, runId: 'run_20261206000000_aaaaaa' });
  chain.end({ type: 'final', text: '', spool: raw });
  await new Promise((resolve) => chain.once('readable', resolve));
  const first = String(chain.read());
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.ok(pulled < 2 * MiB, `the reader stalled after ${first.length} characters: ${pulled} of ${text.length} read from the spool`);
  const line = first + (await readText(chain));
  t.equal(pulled, text.length);
  const [final] = events(line) as unknown as [{ text: string }];
  t.ok(final.text === redactText(text), 'then the whole final, as redactText of the whole gives');
  t.notMatch(line, key.slice(14, 40));
});

t.test('outputChain -o text with no session: a spooled final\'s text is not read at all', async (t) => {
  const source = new TextSpool(10);
  source.write('x'.repeat(1000));
  let pulled = 0;
  const raw = source.through({ push: (piece) => ((pulled += piece.length), piece), flush: () => '' });
  await through(outputChain({ format: 'text', stderr: { write: () => true } }), [{ type: 'final', text: '', spool: raw }]);
  t.equal(pulled, 0);
});

t.test('outputChain with a session: a delta is on the output before work already queued behind it (the reply\'s end) has run', async (t) => {
  const root = t.testdir({});
  const recorder = createRecorder({ root, plan: { kind: 'new' }, cwd: '/repo', provider: 'openai', model: 'm' });
  await recorder.begin('Say it.');
  const chain = outputChain({ ...streamJson, recorder, runId: 'run_20261206000000_aaaaaa' });
  let out = '';
  chain.on('data', (bytes) => (out += String(bytes)));
  chain.write({ type: 'run_start', cwd: '/repo', provider: 'openai', model: 'm' });
  await new Promise((resolve) => setImmediate(resolve));
  chain.write({ type: 'text', delta: 'last word' });
  // the SDK decoding the reply's last chunks, the loop ending the turn: a chain of promise callbacks, no I/O
  let seenAfter = -1;
  for (let step = 0; step < 200 && seenAfter < 0; step++) {
    await Promise.resolve();
    if (out.includes('last word')) seenAfter = step;
  }
  t.ok(seenAfter >= 0 && seenAfter < 50, `the delta went out ${seenAfter} promise callbacks later`);
  chain.end({ type: 'run_end', status: 'success', exitCode: 0 });
  await new Promise((resolve) => chain.on('end', resolve).resume());
});
