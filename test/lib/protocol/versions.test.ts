import t from 'tap';
import { createVersioner, isInItsVersion, resolveVersion } from '../../../lib/protocol/versions.js';
import { stampEvent } from '../../../lib/protocol/stamp.js';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';
import type { Event } from '../../../lib/protocol/types.js';
import { TextSpool } from '../../../lib/files/text-spool.js';

const RUN_ID = 'run_20261201000000_abcdef';

/** A run's internal events: reasoning, a tool call and its result, usage with a cost, then a cancelled ending. */
const cancelledRun: Event[] = [
  { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'demo' },
  { type: 'reasoning', delta: 'Let me look.' },
  { type: 'tool_call', id: 'call_1', name: 'read_file', args: { path: 'a' }, sideEffect: 'read' },
  { type: 'tool_result', id: 'call_1', status: 'ok', output: 'x', truncated: false, changedFiles: [] },
  { type: 'usage', promptTokens: 3, completionTokens: 4, totalTokens: 7, costUsd: 0.01 },
  { type: 'error', code: 'cancelled', message: 'Cancelled by SIGTERM.', recoverable: true },
  { type: 'run_end', status: 'error', exitCode: 143 },
];

const inVersion = (version: 1 | 2, events: Event[]) => {
  const versioned = createVersioner(version);
  return events.flatMap((event) => versioned(event) ?? []);
};

t.test('version 1 drops reasoning and the tool_result fields it lacks, and keeps its own endings', async (t) => {
  const out = inVersion(1, cancelledRun);
  t.same(out.map((event) => event.type), ['run_start', 'tool_call', 'tool_result', 'usage', 'error', 'run_end']);
  t.same(out[2], { type: 'tool_result', id: 'call_1', status: 'ok', output: 'x', truncated: false });
  t.same(out.at(-1), { type: 'run_end', status: 'error', exitCode: 143 });
  for (const event of out) t.ok(checkAgainstSchema('output', stampEvent(event, RUN_ID, 1)).ok, `${event.type} is valid version 1`);
});

t.test('version 2: tool_result named after its call, costUsd kept, a signal ends as interrupted / 130, not recoverable', async (t) => {
  const out = inVersion(2, cancelledRun);
  t.equal(out.length, cancelledRun.length);
  t.match(out[3], { type: 'tool_result', id: 'call_1', name: 'read_file' });
  t.same(out[4], { type: 'usage', promptTokens: 3, completionTokens: 4, totalTokens: 7, costUsd: 0.01 });
  t.same(out[5], { type: 'error', code: 'interrupted', message: 'run cancelled by signal', recoverable: false });
  t.same(out[6], { type: 'run_end', status: 'interrupted', exitCode: 130 });
  for (const event of out) {
    const verdict = checkAgainstSchema('output.v2', stampEvent(event, RUN_ID, 2));
    t.ok(verdict.ok, `${event.type} is valid version 2 ${verdict.ok ? '' : `${verdict.field}: ${verdict.problem}`}`);
  }
});

t.test('version 2: the turn limit ends as incomplete / 4', async (t) => {
  const out = inVersion(2, [
    { type: 'final', text: 'partial' },
    { type: 'error', code: 'max_turns', message: 'Reached the turn limit (1).', recoverable: true },
    { type: 'run_end', status: 'error', exitCode: 4 },
  ]);
  t.same(out.slice(1), [
    { type: 'error', code: 'incomplete', message: 'Reached the turn limit (1).', recoverable: false },
    { type: 'run_end', status: 'incomplete', exitCode: 4 },
  ]);
});

t.test('version 2: every error is written recoverable: false, as Zero writes them; version 1 keeps its own', async (t) => {
  const usage: Event = { type: 'error', code: 'usage_error', message: 'Invalid value for --max-turns: "x".', recoverable: true };
  t.same(inVersion(2, [usage]), [{ ...usage, recoverable: false }]);
  t.same(inVersion(1, [usage]), [usage]);
});

t.test('a version chosen late is asked for when needed; none means 1', async (t) => {
  let learned: 1 | 2 = 1;
  const choice = () => learned;
  learned = 2;
  t.equal(resolveVersion(choice), 2);
  t.equal(resolveVersion(undefined), 1);
  t.equal(resolveVersion(2), 2);
});

t.test('keep: version 1 still writes the kept types (for the text format\'s reader), which are not in their version', async (t) => {
  const versioned = createVersioner(1, { keep: new Set(['reasoning']) });
  t.same(cancelledRun.flatMap((event) => versioned(event) ?? []).map((event) => event.type), ['run_start', 'reasoning', 'tool_call', 'tool_result', 'usage', 'error', 'run_end']);
  t.notOk(isInItsVersion(stampEvent({ type: 'reasoning', delta: 'x' }, RUN_ID, 1)), 'a version 1 reasoning event is no version 1 event');
  t.ok(isInItsVersion(stampEvent({ type: 'reasoning', delta: 'x' }, RUN_ID, 2)));
  t.ok(isInItsVersion(stampEvent({ type: 'text', delta: 'x' }, RUN_ID, 1)));
});

t.test('version 2: a budget, the deadline and an answer out of schema end as incomplete / 4 with their own codes; version 1 as error / 4', async (t) => {
  for (const code of ['budget_exceeded', 'timeout', 'invalid_output']) {
    const ending: Event[] = [
      { type: 'error', code, message: 'Stopped.', recoverable: true },
      { type: 'run_end', status: 'error', exitCode: 4 },
    ];
    t.same(inVersion(2, ending), [{ ...ending[0]!, recoverable: false }, { type: 'run_end', status: 'incomplete', exitCode: 4 }], code);
    t.same(inVersion(1, ending), ending, code);
  }
});

t.test('a spooled final keeps its spool in both versions (its line writes the text from it)', async (t) => {
  const spool = new TextSpool(4);
  spool.write('a long answer');
  for (const version of [1, 2] as const) {
    const final = createVersioner(version)({ type: 'final', text: '', spool });
    t.equal((final as { spool?: TextSpool }).spool, spool, `version ${version}`);
  }
  t.same(createVersioner(1)({ type: 'final', text: 'short', structured: { a: 1 } }), { type: 'final', text: 'short' }, 'version 1 still drops structured, and adds no spool');
});
