import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { warmUpStep } from '../../../lib/output/warm-up.js';
import { outputChain } from '../../../lib/pipeline.js';
import type { Event } from '../../../lib/protocol/types.js';
import { createRecorder } from '../../../lib/sessions/recorder.js';
import { applyStep, type Step } from '../../../lib/streams.js';

const runStart: Event = { type: 'run_start', cwd: '/repo', provider: 'openai', model: 'gpt-4.1' };
const runEnd: Event = { type: 'run_end', status: 'success', exitCode: 0 };

t.test('events pass as they are; after run_start, once and on a later turn of the event loop, text deltas go through the copy', async (t) => {
  const given: Event[] = [];
  let copies = 0;
  const copy = (): Step<Event, unknown> => {
    copies++;
    return { write: (event) => void given.push(event) };
  };
  const events: Event[] = [runStart, { type: 'text', delta: 'Hi' }, runStart, runEnd];
  t.same(applyStep(warmUpStep(copy), events), events);
  t.equal(copies, 0, 'nothing while the run_start is on its way out');
  await sleep(20);
  t.equal(copies, 1, 'one copy, whatever comes after');
  t.ok(given.length > 0 && given.every((event) => event.type === 'text'), 'text deltas');
});

t.test('the warm-up writes nothing: not on the output, not on stderr, not in the session', async (t) => {
  for (const format of ['stream-json', 'text'] as const) {
    const root = t.testdir({});
    const recorder = createRecorder({ root, plan: { kind: 'new' }, cwd: '/repo', provider: 'openai', model: 'gpt-4.1' });
    const { sessionId } = await recorder.begin('Say it.');
    let stderr = '';
    const chain = outputChain({ format, recorder, runId: 'run_20261206000000_aaaaaa', stderr: { write: (text: string) => (stderr += text) } });
    let out = '';
    chain.on('data', (bytes) => (out += String(bytes)));
    const ended = new Promise((resolve) => chain.on('end', resolve));
    chain.write(runStart);
    // the wait for the model's first text, during which the warm-up runs
    await sleep(50);
    chain.write({ type: 'text', delta: 'The answer.' });
    chain.write({ type: 'final', text: 'The answer.' });
    chain.end(runEnd);
    await ended;
    const journal = readFileSync(join(root, sessionId!, 'events.jsonl'), 'utf8');
    t.match(out, 'The answer.', `${format}: the run's own text is written`);
    for (const [where, text] of [['stdout', out], ['stderr', stderr], ['events.jsonl', journal]]) {
      t.notMatch(text, /lib\/run\.ts|Here is/, `${format}: nothing of the warm-up's deltas on ${where}`);
    }
    if (format === 'stream-json') {
      t.same(out.trim().split('\n').map((line) => JSON.parse(line).type), ['run_start', 'text', 'final', 'run_end'], 'the events written, no other');
    }
  }
});
