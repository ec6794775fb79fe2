import t from 'tap';
import { checkVersioned, createLineValidator, createVersionScopes, schemaVersionOf } from '../../../lib/protocol/schema-version.js';
import type { SchemaVersion } from '../../../lib/protocol/types.js';

const runId = 'run_20261201091000_v2run1';
const prompt = (schemaVersion: unknown, content = 'x') => ({ schemaVersion, type: 'prompt', content });
const imagesOnly = { schemaVersion: 2, type: 'message', role: 'user', content: '', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] };
const reasoning = (schemaVersion: unknown, id = runId) => ({ schemaVersion, type: 'reasoning', runId: id, delta: 'thinking' });
const text = (schemaVersion: unknown, id = runId) => ({ schemaVersion, type: 'text', runId: id, delta: 'answer' });

t.test('schemaVersionOf: 1 or 2, else nothing', async (t) => {
  t.equal(schemaVersionOf(prompt(1)), 1);
  t.equal(schemaVersionOf(prompt(2)), 2);
  for (const other of [3, '2', 0, null]) t.equal(schemaVersionOf(prompt(other)), undefined, JSON.stringify(other));
  t.equal(schemaVersionOf({ type: 'prompt' }), undefined);
  t.equal(schemaVersionOf([2]), undefined);
});

t.test('checkVersioned: each value against the schema of its own schemaVersion', async (t) => {
  t.same(checkVersioned('input', imagesOnly), { ok: true, value: imagesOnly }, 'a v2 message with images only');
  t.same(checkVersioned('input', { ...imagesOnly, schemaVersion: 1 }), { ok: false, field: 'images', problem: 'Unrecognized key: "images"' }, 'v1 has no images');
  t.same(checkVersioned('output', reasoning(2)), { ok: true, value: reasoning(2) });
  t.same(checkVersioned('output', reasoning(1)), { ok: false, field: 'type', problem: 'Unknown type "reasoning"' }, 'v1 has no reasoning');
  t.same(checkVersioned('output', text(1)), { ok: true, value: text(1) });
  const v1Result = { schemaVersion: 1, type: 'tool_result', runId, id: 'call_1', status: 'ok', output: '', truncated: false };
  t.same(checkVersioned('output', { ...v1Result, name: 'read_file' }), { ok: false, field: 'name', problem: 'Unrecognized key: "name"' }, 'a v1 tool_result does not name its tool');
  t.same(checkVersioned('output', { ...v1Result, schemaVersion: 2 }), { ok: true, value: { ...v1Result, schemaVersion: 2 } }, 'a v2 one may leave it out, as the example of Zero\'s protocol document does');
  const bmp = { ...imagesOnly, images: [{ mediaType: 'image/bmp', data: 'iVBORw0KGgo=' }] };
  t.same(checkVersioned('input', bmp), { ok: false, field: 'images[0].mediaType', problem: 'Unsupported image type "image/bmp" (expected png, jpeg, gif or webp)' }, 'an input event is checked as the run takes it');
  t.same(checkVersioned('input', { ...imagesOnly, images: [{ mediaType: 'PNG', data: 'iVBO\nRw0KGgo=' }] }), { ok: true, value: imagesOnly }, 'and comes back as the run takes it');
});

t.test('checkVersioned: a version that is neither 1 nor 2 is the problem; none is a missing field', async (t) => {
  t.same(checkVersioned('input', prompt(3)), { ok: false, field: 'schemaVersion', problem: 'Expected 1 or 2, received 3' });
  t.same(checkVersioned('input', prompt('1')), { ok: false, field: 'schemaVersion', problem: 'Expected 1 or 2, received "1"' });
  t.same(checkVersioned('output', { ...reasoning(3), extra: true }), { ok: false, field: 'schemaVersion', problem: 'Expected 1 or 2, received 3' }, 'before any other problem');
  t.same(checkVersioned('input', { type: 'prompt', content: 'x' }), { ok: false, field: 'schemaVersion', problem: 'Required field is missing' });
  t.same(checkVersioned('input', 'text'), { ok: false, field: '(root)', problem: 'Expected object, received string' });
});

t.test('createVersionScopes: the first line with 1 or 2 sets a scope\'s version; the other version is named with that line', async (t) => {
  const firsts: [SchemaVersion, string][] = [];
  const scopes = createVersionScopes((scope) => `run ${scope}`, (version, scope) => firsts.push([version, scope]));
  t.equal(scopes.check('a', prompt(3), 1), undefined, 'an unknown version sets nothing');
  t.equal(scopes.check('a', prompt(1), 2), undefined);
  t.equal(scopes.check('b', prompt(2), 3), undefined, 'each scope has its own');
  t.equal(scopes.check('a', prompt(1), 4), undefined);
  t.same(scopes.check('a', prompt(2), 5), { field: 'schemaVersion', problem: 'Expected 1, received 2 (run a is version 1 from line 2)' });
  t.same(scopes.check('b', prompt(1), 6), { field: 'schemaVersion', problem: 'Expected 2, received 1 (run b is version 2 from line 3)' });
  t.same(firsts, [[1, 'a'], [2, 'b']]);
});

t.test('createLineValidator(input): version 2 input is accepted, mixed input is not', async (t) => {
  const check = createLineValidator('input');
  t.same(check({ value: prompt(2), lineNo: 1 }), prompt(2));
  t.same(check({ value: imagesOnly, lineNo: 2 }), imagesOnly);
  t.throws(() => check({ value: prompt(1), lineNo: 4 }), { message: 'Invalid stream-json input at line 4: schemaVersion: Expected 2, received 1 (the input is version 2 from line 1)', exitCode: 2 });
  const v1 = createLineValidator('input');
  t.same(v1({ value: prompt(1), lineNo: 1 }), prompt(1));
  t.throws(() => v1({ value: imagesOnly, lineNo: 2 }), { message: /^Invalid stream-json input at line 2: schemaVersion: Expected 1, received 2 \(the input is version 1 from line 1\)$/ }, 'the mix is named before the images');
  t.throws(() => createLineValidator('input')({ value: prompt(3), lineNo: 1 }), { message: 'Invalid stream-json input at line 1: schemaVersion: Expected 1 or 2, received 3' });
});

t.test('createLineValidator(input): onSchemaVersion hears the input\'s version once, even from an invalid line', async (t) => {
  const heard: SchemaVersion[] = [];
  const check = createLineValidator('input', { onSchemaVersion: (version) => heard.push(version) });
  t.throws(() => check({ value: prompt(3), lineNo: 1 }));
  t.same(heard, [], 'not from a version zero does not speak');
  t.throws(() => check({ value: { ...prompt(2), extra: 1 }, lineNo: 2 }), { message: /line 2: extra: Unrecognized key/ });
  t.same(heard, [2]);
  check({ value: prompt(2), lineNo: 3 });
  t.throws(() => check({ value: prompt(1), lineNo: 4 }));
  t.same(heard, [2], 'once');
});

t.test('createLineValidator(output): one version per runId, several runs of either version', async (t) => {
  const check = createLineValidator('output', { label: 'recorded event' });
  const other = 'run_20261201091500_p3rm00';
  t.same(check({ value: reasoning(2), lineNo: 1 }), reasoning(2));
  t.same(check({ value: text(1, other), lineNo: 2 }), text(1, other), 'another run, another version');
  t.throws(() => check({ value: text(1), lineNo: 3 }), { message: `Invalid recorded event at line 3: schemaVersion: Expected 2, received 1 (run ${runId} is version 2 from line 1)` });
  t.throws(() => check({ value: reasoning(1, other), lineNo: 4 }), { message: 'Invalid recorded event at line 4: type: Unknown type "reasoning"' }, 'a version 1 run has no reasoning');
});

t.test('createLineValidator: other kinds check their one file', async (t) => {
  t.throws(() => createLineValidator('output.v2')({ value: text(1), lineNo: 1 }), { message: 'Invalid output event at line 1: schemaVersion: Expected 2, received 1' });
  t.throws(() => createLineValidator('input.v2')({ value: prompt(1), lineNo: 2 }), { message: 'Invalid stream-json input at line 2: schemaVersion: Expected 2, received 1' });
  t.same(createLineValidator('script')({ value: { text: 'hi' }, lineNo: 1 }), { text: 'hi' });
});
