import t from 'tap';
import { validate } from '../../transforms/validate.js';
import { through, throughUntilError } from '../helpers/streams.js';

const at = (value: unknown, lineNo = 1) => ({ value, lineNo });

t.test('input: both accepted shapes pass through as typed events', async (t) => {
  const message = { schemaVersion: 1, type: 'message', role: 'user', content: 'Inspect this repo.' };
  const prompt = { schemaVersion: 1, type: 'prompt', content: 'Return only blockers.' };
  t.same(await through(validate('input'), [at(message), at(prompt, 2)]), [message, prompt]);
});

const violations: [string, unknown, string][] = [
  ['an unknown field', { schemaVersion: 1, type: 'prompt', content: 'x', extra: true }, 'extra: Unrecognized key: "extra"'],
  ['an unknown field on a message', { schemaVersion: 1, type: 'message', role: 'user', content: 'x', name: 'me' }, 'name: Unrecognized key: "name"'],
  ['a missing content', { schemaVersion: 1, type: 'prompt' }, 'content: Required field is missing'],
  ['a missing role', { schemaVersion: 1, type: 'message', content: 'x' }, 'role: Required field is missing'],
  ['a missing schemaVersion', { type: 'prompt', content: 'x' }, 'schemaVersion: Required field is missing'],
  ['a missing type', { schemaVersion: 1, content: 'x' }, 'type: Required field is missing'],
  ['schemaVersion 3', { schemaVersion: 3, type: 'prompt', content: 'x' }, 'schemaVersion: Expected 1 or 2, received 3'],
  ['schemaVersion as a string', { schemaVersion: '1', type: 'prompt', content: 'x' }, 'schemaVersion: Expected 1 or 2, received "1"'],
  ['an unknown type', { schemaVersion: 1, type: 'reply', content: 'x' }, 'type: Unknown type "reply"'],
  ['a type that is not a string', { schemaVersion: 1, type: 3, content: 'x' }, 'type: Expected string, received number'],
  ['an assistant role', { schemaVersion: 1, type: 'message', role: 'assistant', content: 'x' }, 'role: Expected "user", received "assistant"'],
  ['content of the wrong type', { schemaVersion: 1, type: 'prompt', content: ['x'] }, 'content: Expected string, received array'],
  ['empty content', { schemaVersion: 1, type: 'prompt', content: '' }, 'content: Must not be empty'],
];

for (const [what, value, problem] of violations) {
  t.test(`input: ${what} is rejected, naming the field and the line`, async (t) => {
    const { out, error } = await throughUntilError(validate('input'), [at(value, 4)]);
    t.same(out, []);
    t.equal(error?.message, `Invalid stream-json input at line 4: ${problem}`);
    t.equal((error as { exitCode?: number }).exitCode, 2);
  });
}

t.test('input: version 2 passes, images and all; input mixing versions is refused at the line that differs', async (t) => {
  const image = { mediaType: 'image/png', data: 'iVBORw0KGgo=' };
  const v2 = [{ schemaVersion: 2, type: 'message', role: 'user', content: '', images: [image] }, { schemaVersion: 2, type: 'prompt', content: 'Compare.' }];
  t.same(await through(validate('input'), [at(v2[0]), at(v2[1], 2)]), v2);
  const { error } = await throughUntilError(validate('input'), [at(v2[1], 1), at({ schemaVersion: 1, type: 'prompt', content: 'x' }, 3)]);
  t.equal(error?.message, 'Invalid stream-json input at line 3: schemaVersion: Expected 2, received 1 (the input is version 2 from line 1)');
  t.equal((error as { exitCode?: number }).exitCode, 2);
});

t.test('input: onSchemaVersion is told the input\'s version once, from its first line, valid or not', async (t) => {
  const heard: number[] = [];
  const onSchemaVersion = (version: number) => heard.push(version);
  await through(validate('input', { onSchemaVersion }), [at({ schemaVersion: 2, type: 'prompt', content: 'a' }), at({ schemaVersion: 2, type: 'prompt', content: 'b' }, 2)]);
  t.same(heard, [2]);
  const { error } = await throughUntilError(validate('input', { onSchemaVersion }), [at({ schemaVersion: 1, type: 'prompt', content: '' })]);
  t.match(error?.message, /line 1: content: Must not be empty/);
  t.same(heard, [2, 1], 'told before the line is refused');
});

t.test('output: each run against its own version; a version change within a run is refused', async (t) => {
  const runs = ['run_20261201091000_v2run1', 'run_20261201092003_pr0v02'];
  const events = [
    { schemaVersion: 2, type: 'reasoning', runId: runs[0], delta: 'hm' },
    { schemaVersion: 2, type: 'run_end', runId: runs[0], status: 'interrupted', exitCode: 130 },
    { schemaVersion: 1, type: 'text', runId: runs[1], delta: 'x' },
  ];
  t.same(await through(validate('output'), events.map((event, index) => at(event, index + 1))), events);
  const { error } = await throughUntilError(validate('output'), [at(events[0]), at({ ...events[2], runId: runs[0] }, 2)]);
  t.equal(error?.message, `Invalid output event at line 2: schemaVersion: Expected 2, received 1 (run ${runs[0]} is version 2 from line 1)`);
});

t.test('input.v2 and output.v2 stay exact', async (t) => {
  const { error } = await throughUntilError(validate('input.v2'), [at({ schemaVersion: 1, type: 'prompt', content: 'x' })]);
  t.equal(error?.message, 'Invalid stream-json input at line 1: schemaVersion: Expected 2, received 1');
  const { error: output } = await throughUntilError(validate('output.v2'), [at({ schemaVersion: 1, type: 'final', runId: 'run_20261130053326_ab12cd', text: '' })]);
  t.equal(output?.message, 'Invalid output event at line 1: schemaVersion: Expected 2, received 1');
});

t.test('output: a well-formed event passes, a stray field does not', async (t) => {
  const runId = 'run_20261130053326_ab12cd';
  const good = { schemaVersion: 1, type: 'tool_result', runId, id: 'call_1', status: 'ok', output: 'x', truncated: false };
  t.same(await through(validate('output'), [at(good)]), [good]);
  const { error } = await throughUntilError(validate('output'), [at({ ...good, extra: 1 }, 9)]);
  t.equal(error?.message, 'Invalid output event at line 9: extra: Unrecognized key: "extra"');
});

t.test('output: empty text deltas and bad ids are rejected', async (t) => {
  const runId = 'run_20261130053326_ab12cd';
  const { error: emptyDelta } = await throughUntilError(validate('output'), [at({ schemaVersion: 1, type: 'text', runId, delta: '' })]);
  t.match(emptyDelta?.message, /delta: Must not be empty/);
  const { error: badId } = await throughUntilError(validate('output'), [at({ schemaVersion: 1, type: 'tool_call', runId, id: '-bad', name: 'x' })]);
  t.match(badId?.message, /id: /);
  // a runId is any id (another program's logs), but still an id: not one that starts with a dash or holds a space
  const { error: badRunId } = await throughUntilError(validate('output'), [at({ schemaVersion: 1, type: 'final', runId: '-run 1', text: '' })]);
  t.match(badRunId?.message, /runId: /);
});

t.test('script: unknown fields and mixed text forms are usage errors', async (t) => {
  const { error } = await throughUntilError(validate('script', { label: 'script s.jsonl' }), [at({ toolCalls: [{ name: 'x', args: {}, nmae: 'y' }] }, 3)]);
  t.equal(error?.message, 'Invalid script s.jsonl at line 3: toolCalls[0].nmae: Unrecognized key: "nmae"');
  const { error: both } = await throughUntilError(validate('script'), [at({ chunks: ['a'], text: 'b' })]);
  t.match(both?.message, /^Invalid script at line 1: text: /);
});

t.test("a program's own event objects, not framed lines: checked the same, numbered as lines from 1", async (t) => {
  const runId = 'run_20261130053326_ab12cd';
  const good = [
    { schemaVersion: 1, type: 'text', runId, delta: 'Hi' },
    { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 },
  ];
  t.same(await through(validate('output'), good), good);
  const { out, error } = await throughUntilError(validate('output'), [good[0], { ...good[1], exitCode: 'zero' }]);
  t.same(out, [good[0]]);
  t.equal(error?.message, 'Invalid output event at line 2: exitCode: Expected integer, received string');
  const notAnObject = await throughUntilError(validate('output'), ['{"type":"text"}']);
  t.equal(notAnObject.error?.message, 'Invalid output event at line 1: (root): Expected object, received string');
});
